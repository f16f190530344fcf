import type { JournalHead, JournalRecord } from './model';

/** What appending an account update's records reports: done, or the head had moved. */
export type AppendResult =
  | { readonly kind: 'committed' }
  /** The head was not where the records continue from: how it stood then (absent: no head). */
  | { readonly kind: 'head_moved'; readonly head: JournalHead | undefined };

/** The projector's storage: the head, and the records of one update written as one. */
export interface JournalWritePort {
  /** The account's journal head, strongly consistent; undefined before its first record. */
  readHead(accountId: string): Promise<JournalHead | undefined>;
  /**
   * ONE transaction: every record and its time-keyed item, and the head moved to the last of
   * them, only while the head still stands at `previous` (absent: no head yet).
   */
  append(
    records: readonly JournalRecord[],
    previous: JournalHead | undefined,
  ): Promise<AppendResult>;
  /** Records `from … to` of an account, ascending, strongly consistent. */
  readRecords(accountId: string, from: number, to: number): Promise<JournalRecord[]>;
  /**
   * Asks the reconciler to check the account (docs/contract.md §19). `append` marks it in its
   * own transaction; this is for an account that changed without a journaled change.
   */
  markForReconcile(accountId: string, lastSequence: number): Promise<void>;
}

/** An account as the read routes need it: owner, current values, how far it counts. */
export interface JournalAccount {
  readonly accountId: string;
  readonly ownerId: string;
  readonly balance: number;
  readonly available: number;
  readonly version: number;
  readonly updatedAt: string;
  /** Created with the journal: before its first record it held zeros. */
  readonly journalFromCreation: boolean;
}

export interface JournalPage {
  readonly items: readonly JournalRecord[];
  /** The `afterSequence` of the next page; null when this page reached the last record. */
  readonly nextAfterSequence: number | null;
}

/** The read routes' storage. */
export interface JournalReadPort {
  getAccount(accountId: string): Promise<JournalAccount | undefined>;
  /** Records after `afterSequence`, ascending, at most `limit`, strongly consistent. */
  listRecords(accountId: string, afterSequence: number, limit: number): Promise<JournalPage>;
  /** The first record committed after `asOf` (ISO 8601), strongly consistent. */
  firstRecordAfter(accountId: string, asOf: string): Promise<JournalRecord | undefined>;
}
