import { NotFoundError } from '../shared/errors';
import type { Metadata } from './metadata';

/** Domain records as the service stores and returns them. */

/**
 * What an entry did to its account: `credit`/`debit` (HTTP or events), the two legs of a
 * transfer (docs/contract.md §10), the capture of a hold (§11), a leg of a ledger transaction
 * or a reversal (§16).
 */
export const TRANSACTION_TYPES = [
  'credit',
  'debit',
  'transfer_out',
  'transfer_in',
  'capture',
  'ledger_debit',
  'ledger_credit',
  'reversal',
] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];
export type EntryOrigin = 'http' | 'event';
export type Direction = 'debit' | 'credit';

/** Entries that `…/transactions/{entryId}/reversals` moves back (docs/contract.md §16). */
export const REVERSIBLE_ENTRY_TYPES: ReadonlySet<TransactionType> = new Set([
  'credit',
  'debit',
  'capture',
]);

/** What a reversal reverses: an entry, a transfer or a ledger transaction (§16). */
export interface ReversalTarget {
  readonly kind: 'entry' | 'transfer' | 'ledger_transaction';
  readonly id: string;
}

/**
 * Deferred credits (docs/contract.md §24): how an account takes credits. `direct` (the default)
 * changes the account item in the movement's own transaction; `deferred` writes a pending
 * credit in the account's intake partitions instead, which the folder posts in batches.
 */
export const CREDIT_INTAKE_MODES = ['direct', 'deferred'] as const;
export type CreditIntake = (typeof CREDIT_INTAKE_MODES)[number];

export const ACCOUNT_STATUSES = ['open', 'closed'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

export interface Account {
  readonly id: string;
  readonly currency: string;
  readonly balance: number;
  /** `balance` less the active holds (docs/contract.md §11); below 0 only by overdraft (§17). */
  readonly available: number;
  /** How far below 0 `available` may go (docs/contract.md §17); 0 for older accounts. */
  readonly overdraftLimit: number;
  /** `closed`: nothing moves any more (§17); older accounts are `open`. */
  readonly status: AccountStatus;
  readonly name?: string;
  /**
   * Caller-chosen pairs (docs/contract.md §34): stored in the account's own metadata item,
   * never on the hot account item; present only where a read fetched that item.
   */
  readonly metadata?: Metadata;
  /**
   * Changes of `balance` or `available` committed so far, counted from the account's creation
   * or, for an account older than the journal, from its first change after it (§15).
   */
  readonly version: number;
  /**
   * Movements effective at or before it are refused (`period_closed`) and its statements never
   * change (docs/contract.md §26); absent until the first period close.
   */
  readonly closedThrough?: string;
  /**
   * How it takes credits (docs/contract.md §24): `deferred` accepts them as pending credits that
   * the folder posts in batches; older accounts are `direct`.
   */
  readonly creditIntake: CreditIntake;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** An account as stored: the public view plus its owner. */
export interface AccountRecord extends Account {
  readonly ownerId: string;
  /**
   * A deferred account's intake partitions (gates 0 … intakeShards − 1), fixed when it first
   * turned deferred; absent while it never was.
   */
  readonly intakeShards?: number;
}

/** What a transfer or ledger transaction records besides its amounts (docs/contract.md §10, §16). */
export interface RecordedDetails {
  readonly reference?: string;
  readonly paymentId?: string;
  readonly metadata?: Metadata;
  /** Reads: how much reversals moved back so far (docs/contract.md §16). */
  readonly reversedAmount?: number;
  readonly createdAt: string;
  /** When it counts in the books (docs/contract.md §26): given, or `createdAt`. */
  readonly effectiveAt: string;
}

export interface LedgerEntry {
  readonly id: string;
  readonly accountId: string;
  readonly type: TransactionType;
  readonly amount: number;
  readonly currency: string;
  readonly reference?: string;
  readonly paymentId?: string;
  /** Transfer legs: the transfer and the other account. */
  readonly transferId?: string;
  readonly counterpartyAccountId?: string;
  /** Captures: the hold captured. */
  readonly holdId?: string;
  /** Ledger-transaction legs, and reversals of a ledger transaction (§16). */
  readonly ledgerTransactionId?: string;
  /** Reversals: what they reverse, the reversal they belong to, and their direction. */
  readonly reversalOf?: ReversalTarget;
  readonly reversalId?: string;
  readonly direction?: Direction;
  readonly metadata?: Metadata;
  /** Reads of reversible entries: how much reversals moved back so far (§16). */
  readonly reversedAmount?: number;
  readonly origin: EntryOrigin;
  readonly createdAt: string;
  /**
   * When it counts in the books (docs/contract.md §26): the caller's, or the commit's own time;
   * entries from before effective dates read as their `createdAt`.
   */
  readonly effectiveAt: string;
}

/**
 * Where an entry stands (docs/contract.md §24): `pending` while a deferred account's credit
 * waits in its intake partition, `posted` once it changed the account (every direct entry).
 */
export type EntryStatus = 'posted' | 'pending' | 'set_aside';

/**
 * An entry as reads show it: with its status (POST answers keep their first bodies); a credit
 * set aside (§36) with why and when.
 */
export type EntryRead = LedgerEntry & {
  readonly status: EntryStatus;
  readonly reason?: string;
  readonly setAsideAt?: string;
};

/**
 * A listing item, a read by id (and a JSON Lines export line): reversible entries show how much
 * reversals moved back (docs/contract.md §16), 0 until reversed, and every entry its status.
 */
export const readEntry = (entry: LedgerEntry, status: EntryStatus = 'posted'): EntryRead =>
  REVERSIBLE_ENTRY_TYPES.has(entry.type)
    ? { ...entry, reversedAmount: entry.reversedAmount ?? 0, status }
    : { ...entry, status };

/** Which way an entry moved its account's balance. */
export function directionOf(entry: Pick<LedgerEntry, 'type' | 'direction'>): Direction {
  switch (entry.type) {
    case 'credit':
    case 'transfer_in':
    case 'ledger_credit':
      return 'credit';
    case 'reversal':
      return entry.direction ?? 'credit';
    default:
      return 'debit';
  }
}

/** Entries that give money to their account: what intake defers (credit-direction effects). */
export const isCreditDirection = (entry: Pick<LedgerEntry, 'type' | 'direction'>): boolean =>
  directionOf(entry) === 'credit';

/** Intake partitions of a deferred account unless the deployment says otherwise (§24). */
export const DEFAULT_INTAKE_SHARDS = 8;

/** The signed change an entry made to its account's balance. */
export const signedAmount = (entry: Pick<LedgerEntry, 'type' | 'direction' | 'amount'>): number =>
  directionOf(entry) === 'credit' ? entry.amount : -entry.amount;

/** An entry that credits or debits one account on its own (HTTP, events, export fees). */
export type PostingEntry = LedgerEntry & { readonly type: 'credit' | 'debit' };

/** Public view of an account: the owner is never returned. */
export function accountView(record: AccountRecord): Account {
  const { ownerId: _owner, intakeShards: _shards, metadata, ...account } = record;
  // Last, and only when there is some: an account without metadata answers as it always did.
  return metadata === undefined ? account : { ...account, metadata };
}

/**
 * The record when `principal` owns it; otherwise `not_found`, exactly as for a missing one,
 * so another principal learns nothing of its existence (docs/contract.md §2).
 */
export function ownedBy<T extends { readonly ownerId: string }>(
  record: T | undefined,
  principal: string,
  what: OwnedKind,
): T {
  if (!record || record.ownerId !== principal) throw notFound(what);
  return record;
}

export type OwnedKind = 'Account' | 'Task' | 'Transfer' | 'Hold' | 'Ledger transaction' | 'Entry';

/** The record when `principal` owns it, else undefined (missing and foreign look the same). */
export function owned<T extends { readonly ownerId: string }>(
  record: T | undefined,
  principal: string,
): T | undefined {
  return record?.ownerId === principal ? record : undefined;
}

export const notFound = (what: OwnedKind): NotFoundError => new NotFoundError(`${what} not found.`);
