import type { ExchangeRate } from './ledger-currencies';
import { withMetadata } from './metadata';
import type { Direction, EntryOrigin, RecordedDetails } from './model';

/**
 * Ledger transactions (docs/contract.md §16, §35): one movement of 2–25 legs, each account at
 * most once, each leg in its own currency or the transaction's, debits and credits summing
 * alike per currency. Each leg's account lists an entry
 * `ledger_debit` / `ledger_credit` with `ledgerTransactionId`; all of it commits at once.
 */
export const MIN_LEGS = 2;
export const MAX_LEGS = 25;

export interface LedgerLeg {
  readonly accountId: string;
  readonly direction: Direction;
  readonly amount: number;
  /** The leg's own currency, as the caller gave it; else the transaction's (§35). */
  readonly currency?: string;
}

/** `paymentId` is in the namespace of the first debited account; reversals move all or nothing back. */
export interface LedgerTransaction extends RecordedDetails {
  readonly id: string;
  /** The default of legs without their own; absent when every leg has one and none was sent. */
  readonly currency?: string;
  readonly legs: readonly LedgerLeg[];
  /** Recorded and echoed for audit, never used to convert (§35). */
  readonly rates?: readonly ExchangeRate[];
}

/** The stored leg: the public one plus the id of the entry it wrote. */
export interface StoredLeg extends LedgerLeg {
  readonly entryId: string;
}

/** The `LEDGER_TRANSACTION#<id>` record: the view plus its owner, origin and entry ids. */
export interface LedgerTransactionRecord extends Omit<LedgerTransaction, 'legs'> {
  readonly legs: readonly StoredLeg[];
  readonly ownerId: string;
  readonly origin: EntryOrigin;
}

/** What a caller or producer asks for; the service adds the id and the time. */
export type LedgerTransactionInput = Omit<
  LedgerTransaction,
  'id' | 'createdAt' | 'reversedAmount' | 'effectiveAt'
> & { readonly effectiveAt?: string };

/** The account a ledger event is about, whose `paymentId` namespace the transaction uses. */
export const firstDebited = (legs: readonly LedgerLeg[]): LedgerLeg | undefined =>
  legs.find((leg) => leg.direction === 'debit');

/** The 201 of a new ledger transaction: no owner, origin or entry ids. */
export function ledgerTransactionView(record: LedgerTransactionRecord): LedgerTransaction {
  return {
    id: record.id,
    ...(record.currency === undefined ? {} : { currency: record.currency }),
    legs: record.legs.map(({ accountId, direction, amount, currency }) => ({
      accountId,
      direction,
      amount,
      ...(currency === undefined ? {} : { currency }),
    })),
    ...(record.rates === undefined ? {} : { rates: record.rates.map((rate) => ({ ...rate })) }),
    ...(record.reference === undefined ? {} : { reference: record.reference }),
    ...(record.paymentId === undefined ? {} : { paymentId: record.paymentId }),
    ...withMetadata(record.metadata),
    createdAt: record.createdAt,
    effectiveAt: record.effectiveAt,
  };
}

/** A read: the view with how much of it reversals moved back (§16). */
export const readLedgerTransaction = (record: LedgerTransactionRecord): LedgerTransaction => ({
  ...ledgerTransactionView(record),
  reversedAmount: record.reversedAmount ?? 0,
});
