import { legCurrency } from '../accounts/ledger-currencies';
import {
  firstDebited,
  type LedgerTransactionInput,
  type LedgerTransactionRecord,
} from '../accounts/ledger-transaction-record';
import { withMetadata } from '../accounts/metadata';
import type { EntryOrigin, LedgerEntry } from '../accounts/model';
import { legGuard, type MovementLeg } from './legs';
import type { Actor } from './posting';

/** Everything a ledger transaction writes besides its claim (a request's or an inbox's). */
export interface LedgerTransactionWrite {
  readonly record: LedgerTransactionRecord;
  readonly legs: readonly MovementLeg[];
}

/** A new ledger transaction from its input, HTTP and events alike (docs/contract.md §16). */
export function newLedgerTransactionWrite(
  input: LedgerTransactionInput,
  actor: Actor,
  newId: () => string,
): LedgerTransactionWrite {
  const record = newLedgerTransaction(
    input,
    { id: newId(), entryId: newId },
    {
      ownerId: actor.ownerId,
      origin: actor.origin,
      createdAt: actor.at,
      effectiveAt: actor.effectiveAt,
    },
  );
  return { record, legs: ledgerMovement(record) };
}

/** The record of a new transaction, each leg with the id of its entry. */
export function newLedgerTransaction(
  input: LedgerTransactionInput,
  ids: { readonly id: string; readonly entryId: () => string },
  meta: {
    readonly ownerId: string;
    readonly origin: EntryOrigin;
    readonly createdAt: string;
    readonly effectiveAt: string;
  },
): LedgerTransactionRecord {
  return {
    id: ids.id,
    ...(input.currency === undefined ? {} : { currency: input.currency }),
    legs: input.legs.map((leg) => ({
      accountId: leg.accountId,
      direction: leg.direction,
      amount: leg.amount,
      ...(leg.currency === undefined ? {} : { currency: leg.currency }),
      entryId: ids.entryId(),
    })),
    ...(input.rates === undefined ? {} : { rates: input.rates }),
    reference: input.reference,
    paymentId: input.paymentId,
    ...withMetadata(input.metadata),
    ...meta,
  };
}

/**
 * The movement of a ledger transaction: one leg per account, each guarded (owner, the leg's
 * currency (§35), open; debits covered, credits capped). Only the first debited leg carries the `paymentId`.
 */
export function ledgerMovement(record: LedgerTransactionRecord): MovementLeg[] {
  const payer = firstDebited(record.legs);
  return record.legs.map((leg) => {
    const entry: LedgerEntry = {
      id: leg.entryId,
      accountId: leg.accountId,
      type: leg.direction === 'debit' ? 'ledger_debit' : 'ledger_credit',
      amount: leg.amount,
      currency: legCurrency(record, leg),
      reference: record.reference,
      ...(leg === payer && record.paymentId !== undefined ? { paymentId: record.paymentId } : {}),
      ...withMetadata(record.metadata),
      ledgerTransactionId: record.id,
      origin: record.origin,
      createdAt: record.createdAt,
      effectiveAt: record.effectiveAt,
    };
    return { entry, guard: legGuard(entry, leg.direction, record.ownerId) };
  });
}
