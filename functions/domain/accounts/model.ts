import { NotFoundError } from '../shared/errors';

/** Domain records as the service stores and returns them. */

/**
 * What an entry did to its account: `credit`/`debit` (HTTP or events), the two legs of a
 * transfer (docs/contract.md §10), or the capture of a hold (§11).
 */
export type TransactionType = 'credit' | 'debit' | 'transfer_out' | 'transfer_in' | 'capture';
export const TRANSACTION_TYPES = [
  'credit',
  'debit',
  'transfer_out',
  'transfer_in',
  'capture',
] as const satisfies readonly TransactionType[];
export type EntryOrigin = 'http' | 'event';

export interface Account {
  readonly id: string;
  readonly currency: string;
  readonly balance: number;
  /** `balance` less the active holds (docs/contract.md §11). */
  readonly available: number;
  readonly name?: string;
  /**
   * Changes of `balance` or `available` committed so far, counted from the account's creation
   * or, for an account older than the journal, from its first change after it (§15).
   */
  readonly version: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** An account as stored: the public view plus its owner. */
export interface AccountRecord extends Account {
  readonly ownerId: string;
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
  readonly origin: EntryOrigin;
  readonly createdAt: string;
}

/** An entry that credits or debits one account on its own (HTTP, events, export fees). */
export type PostingEntry = LedgerEntry & { readonly type: 'credit' | 'debit' };

/** Public view of an account: the owner is never returned. */
export function accountView(record: AccountRecord): Account {
  const { ownerId: _owner, ...account } = record;
  return account;
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

export type OwnedKind = 'Account' | 'Task' | 'Transfer' | 'Hold';

/** The record when `principal` owns it, else undefined (missing and foreign look the same). */
export function owned<T extends { readonly ownerId: string }>(
  record: T | undefined,
  principal: string,
): T | undefined {
  return record?.ownerId === principal ? record : undefined;
}

export const notFound = (what: OwnedKind): NotFoundError => new NotFoundError(`${what} not found.`);
