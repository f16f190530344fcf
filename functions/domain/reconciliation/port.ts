import type { LedgerEntry } from '../accounts/model';
import type { JournalRecord } from '../journal/model';
import type { Checkpoint, Finding, LiveAccount, MovementGroup } from './model';

/** An account whose journal moved since it was last checked (the projector's marker). */
export interface ChangedAccount {
  readonly accountId: string;
  readonly lastSequence: number;
}

export interface MarkerPage {
  readonly items: readonly ChangedAccount[];
  /** Where the next page of this shard starts; undefined at its end. */
  readonly next?: string;
}

/** A reference from a journal record to its entry. */
export interface EntryRef {
  readonly accountId: string;
  readonly entryId: string;
}

/** The reconciler's reads and its own few writes; it never writes money (§19). */
export interface ReconcilePort {
  /** Accounts with journal records not yet checked, one shard, a page at a time. */
  changedAccounts(shard: number, start?: string): Promise<MarkerPage>;
  /** Clears the marker only while it still names `lastSequence` (a later change keeps it). */
  clearMarker(account: ChangedAccount): Promise<void>;
  readCheckpoint(accountId: string): Promise<Checkpoint | undefined>;
  saveCheckpoint(checkpoint: Checkpoint): Promise<void>;
  /** Records `from … to`, ascending, strongly consistent (at most 100 per call). */
  readRecords(accountId: string, from: number, to: number): Promise<readonly JournalRecord[]>;
  /** The entries themselves (not their pointers), by id; a missing one is absent. */
  readEntries(refs: readonly EntryRef[]): Promise<ReadonlyMap<string, LedgerEntry>>;
  readAccount(accountId: string): Promise<LiveAccount | undefined>;
  /** Σ signed amounts of every entry of the account (the full pass of an old account). */
  sumEntries(accountId: string): Promise<number>;
  /** Σ of what the account's holds whose stored status is `active` still reserve. */
  reservedByActiveHolds(accountId: string): Promise<number>;
  /** The group's own record and the legs found on its accounts; undefined if it has none. */
  readGroup(kind: MovementGroup['kind'], id: string): Promise<MovementGroup | undefined>;
  /** Writes the finding once; false when (account, check, sequence) was already found. */
  recordFinding(finding: Finding): Promise<boolean>;
  listFindings(): Promise<readonly Finding[]>;
}
