import type { EventSourceView } from '../gaps/port';
import type { SettledWrite } from '../idempotency/idempotent-command';
import type { IdempotencyRecord } from '../idempotency/model';
import type { IdempotencyClaim, ResponseRecorder } from '../idempotency/port';
import type { Metadata } from './metadata';
import type { AccountRecord, LedgerEntry } from './model';
import type { PendingCredit } from './pending-credits';

/**
 * The facts a storage write reports; the domain decides what they mean. Only the failure that
 * matters most is reported: an existing claim, then the account, then the payment id.
 */
export type WriteResult =
  | { readonly kind: 'committed' }
  | { readonly kind: 'claimed'; readonly record: IdempotencyRecord }
  | { readonly kind: 'account_rejected'; readonly account: AccountRecord | undefined }
  | { readonly kind: 'payment_id_taken' };

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
  | { readonly kind: 'account_moved'; readonly account: AccountRecord | undefined }
  /** A deferred account's gate still counts pending credits (docs/contract.md §24). */
  | { readonly kind: 'pending_credits' };

export interface LedgerPort extends ResponseRecorder {
  createAccount(claim: IdempotencyClaim, account: AccountRecord): Promise<WriteResult>;
  /**
   * ONE transaction: the claim and the account to `closed`, while it is still exactly as `read`
   * (its owner, `updatedAt`, balance and available 0, open) and, for a deferred account, every
   * gate closed while it counts no pending credit. Moves no money, so no version.
   */
  closeAccount(claim: IdempotencyClaim, read: AccountRecord, at: string): Promise<CloseResult>;
  getAccount(accountId: string): Promise<AccountRecord | undefined>;
  /** The account's own metadata item (docs/contract.md §34); undefined when it has none. */
  getAccountMetadata(accountId: string): Promise<Metadata | undefined>;
  listEntries(accountId: string, limit: number, cursor: string | undefined): Promise<EntryPage>;
  listEventSources(accountId: string): Promise<EventSourceView[]>;
}

/** A settings change refused by the account's state when the write ran: read it again. */
export type SettingsResult = SettledWrite | { readonly kind: 'account_moved' };

/** Account settings (docs/contract.md §24): a read, then ONE transaction. */
export interface SettingsPort extends ResponseRecorder {
  /** The account with its metadata (its own item, docs/contract.md §34). */
  getAccount(accountId: string): Promise<AccountRecord | undefined>;
  /**
   * ONE transaction: the claim, the account as `next` while it is still exactly as `read`, its
   * metadata item when `next.metadata` differs from `read.metadata` (put, or deleted when
   * absent), and — when `gates` — every gate of `next` synced to it
   * (functions/dynamodb/intake/gates.ts).
   */
  updateSettings(
    claim: IdempotencyClaim,
    read: AccountRecord,
    next: AccountRecord,
    gates: boolean,
  ): Promise<SettingsResult>;
}

export interface PendingCreditPage {
  readonly items: PendingCredit[];
  readonly nextCursor: string | null;
}

/** Reads of entries by id and of pending credits (docs/contract.md §24). */
export interface EntryReadPort {
  getAccount(accountId: string): Promise<AccountRecord | undefined>;
  /** The posted entry with this id on this account (its id pointer, then the entry). */
  postedEntry(accountId: string, entryId: string): Promise<LedgerEntry | undefined>;
  /** The pending credit with this id in one intake partition of the account. */
  pendingEntry(
    accountId: string,
    shard: number,
    entryId: string,
  ): Promise<PendingCredit | undefined>;
  /** Oldest first across `shards` partitions: one Query per partition per page. */
  pendingCredits(
    accountId: string,
    shards: number,
    limit: number,
    cursor: string | undefined,
  ): Promise<PendingCreditPage>;
}
