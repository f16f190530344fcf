import { amountsByCurrency, legCurrency } from './ledger-currencies';
import type { LedgerTransactionRecord } from './ledger-transaction-record';
import {
  type Direction,
  directionOf,
  type LedgerEntry,
  REVERSIBLE_ENTRY_TYPES,
  type ReversalTarget,
} from './model';
import type { TransferRecord } from './transfer-record';

/**
 * Reversals (docs/contract.md §16): money moved back, in ONE transaction guarded by the
 * original's `reversedAmount`, so reversals of one movement never add up to more than it moved,
 * however many race. Each leg of the original gets an entry `type: reversal` the other way.
 */
export interface Reversal {
  readonly id: string;
  readonly reversalOf: ReversalTarget;
  readonly amount: number;
  /**
   * A multi-currency ledger transaction's reversal (§36): what it moves back per currency; its
   * answer carries these instead of `amount`, which then only guards the original.
   */
  readonly amounts?: readonly { readonly currency: string; readonly amount: number }[];
  readonly reference?: string;
  readonly createdAt: string;
}

/** Where an original keeps its `reversedAmount` (the guard); the store knows the item. */
export type OriginalLocation =
  /** `pointer`: the entry's id-keyed pointer holds the guard; else the entry itself (older). */
  | { readonly kind: 'entry'; readonly entry: LedgerEntry; readonly pointer: boolean }
  | { readonly kind: 'transfer'; readonly id: string }
  | { readonly kind: 'ledger_transaction'; readonly id: string };

/** An original as read: how it moved money, and how much of it is left to reverse. */
export interface Reversible {
  readonly target: ReversalTarget;
  readonly location: OriginalLocation;
  /** What its reversals may add up to. */
  readonly amount: number;
  readonly reversedAmount: number;
  /** Only all of it at once (ledger transactions). */
  readonly wholeOnly: boolean;
  /** Its legs as they moved money, each at the original's full amount in its currency. */
  readonly legs: readonly {
    readonly accountId: string;
    readonly direction: Direction;
    readonly amount: number;
    readonly currency: string;
  }[];
  /** Several currencies (§36): per currency, what a whole reversal moves back. */
  readonly amounts?: readonly { readonly currency: string; readonly amount: number }[];
  /** Ids every reversal entry carries, so the movement still sums to zero with them (§19). */
  readonly links: (accountId: string) => Partial<LedgerEntry>;
  /** Why it cannot be reversed at all (a reversal, a transfer leg, …); undefined if it can. */
  readonly refusal?: string;
}

/**
 * The answer of a reversal: `amount`, or for a multi-currency ledger transaction `amounts`
 * per currency in its place (§36), keys in the order single-currency answers always had.
 */
export function reversalView(
  reversal: Reversal,
  amounts: Reversible['amounts'],
): Omit<Reversal, 'amount'> & { readonly amount?: number } {
  if (amounts === undefined) return reversal;
  const { amount: _guard, ...rest } = reversal;
  return {
    id: rest.id,
    reversalOf: rest.reversalOf,
    amounts: amounts.map((each) => ({ ...each })),
    ...(rest.reference === undefined ? {} : { reference: rest.reference }),
    createdAt: rest.createdAt,
  };
}

export const opposite = (direction: Direction): Direction =>
  direction === 'debit' ? 'credit' : 'debit';

export function entryReversible(entry: LedgerEntry, pointer: boolean): Reversible {
  const direction = directionOf(entry);
  return {
    target: { kind: 'entry', id: entry.id },
    location: { kind: 'entry', entry, pointer },
    amount: entry.amount,
    reversedAmount: entry.reversedAmount ?? 0,
    wholeOnly: false,
    legs: [
      { accountId: entry.accountId, direction, amount: entry.amount, currency: entry.currency },
    ],
    links: () => ({}),
    ...(REVERSIBLE_ENTRY_TYPES.has(entry.type) ? {} : { refusal: refusalOf(entry.type) }),
  };
}

function refusalOf(type: LedgerEntry['type']): string {
  if (type === 'reversal') return 'A reversal';
  if (type === 'transfer_in' || type === 'transfer_out') {
    return 'A leg of a transfer (reverse the transfer)';
  }
  return 'A leg of a ledger transaction (reverse the ledger transaction)';
}

export function transferReversible(transfer: TransferRecord): Reversible {
  const { fromAccountId: from, toAccountId: to, amount } = transfer;
  return {
    target: { kind: 'transfer', id: transfer.id },
    location: { kind: 'transfer', id: transfer.id },
    amount,
    reversedAmount: transfer.reversedAmount ?? 0,
    wholeOnly: false,
    legs: [
      { accountId: from, direction: 'debit', amount, currency: transfer.currency },
      { accountId: to, direction: 'credit', amount, currency: transfer.currency },
    ],
    links: (accountId) => ({
      transferId: transfer.id,
      counterpartyAccountId: accountId === from ? to : from,
    }),
  };
}

/**
 * A ledger transaction, reversed whole: each leg back in its own currency (§36). Its guard
 * `amount` is the sum of the debit legs (of every currency: all of it or nothing moves back).
 */
export function ledgerTransactionReversible(record: LedgerTransactionRecord): Reversible {
  const amounts = amountsByCurrency(record);
  const amount = amounts.reduce((sum, each) => sum + each.amount, 0);
  return {
    target: { kind: 'ledger_transaction', id: record.id },
    location: { kind: 'ledger_transaction', id: record.id },
    amount,
    reversedAmount: record.reversedAmount ?? 0,
    wholeOnly: true,
    legs: record.legs.map((leg) => ({
      accountId: leg.accountId,
      direction: leg.direction,
      amount: leg.amount,
      currency: legCurrency(record, leg),
    })),
    ...(amounts.length > 1 ? { amounts } : {}),
    links: () => ({ ledgerTransactionId: record.id }),
  };
}
