import type { GapDetail, WaivedNumber } from '../gaps/source-state';
import type { SettledWrite } from '../idempotency/idempotent-command';
import type { IdempotencyRecord } from '../idempotency/model';
import type { IdempotencyClaim, ResponseRecorder } from '../idempotency/port';
import type { EntryGuard } from '../movements/guard';
import type { AccountRecord, LedgerEntry, PostingEntry } from './model';

/**
 * The facts a storage write reports; the domain decides what they mean. Only the failure that
 * matters most is reported: an existing claim, then the account, then the payment id.
 */
export type WriteResult =
  | { readonly kind: 'committed' }
  | { readonly kind: 'claimed'; readonly record: IdempotencyRecord }
  | { readonly kind: 'account_rejected'; readonly account: AccountRecord | undefined }
  | { readonly kind: 'payment_id_taken' };

/** One event source's sequence tracking for an account (docs/contract.md §5, §6). */
export interface EventSourceView {
  readonly source: string;
  readonly lastSequence: number;
  readonly gaps: readonly number[];
  readonly gapsTruncated: boolean;
  /** Ledger events only (docs/contract.md §18): when each gap opened and was requested. */
  readonly gapDetails: readonly GapDetail[];
  readonly waived: readonly WaivedNumber[];
}

export interface EntryPage {
  readonly items: LedgerEntry[];
  readonly nextCursor: string | null;
}

/**
 * Storage the ledger needs. Every method that changes state is ONE atomic write: the claim and
 * its effects commit together or not at all.
 */
/** Closing refused by the account's state when the write ran (ALL_OLD; undefined: missing). */
export type CloseResult =
  | SettledWrite
  | { readonly kind: 'account_moved'; readonly account: AccountRecord | undefined };

export interface LedgerPort extends ResponseRecorder {
  createAccount(claim: IdempotencyClaim, account: AccountRecord): Promise<WriteResult>;
  /**
   * ONE transaction: the claim and the account to `closed`, while it is still exactly as `read`
   * (its owner, `updatedAt`, balance and available 0, open). Moves no money, so no version.
   */
  closeAccount(claim: IdempotencyClaim, read: AccountRecord, at: string): Promise<CloseResult>;
  postEntry(claim: IdempotencyClaim, entry: PostingEntry, guard: EntryGuard): Promise<WriteResult>;
  getAccount(accountId: string): Promise<AccountRecord | undefined>;
  listEntries(accountId: string, limit: number, cursor: string | undefined): Promise<EntryPage>;
  listEventSources(accountId: string): Promise<EventSourceView[]>;
}
