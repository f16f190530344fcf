import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import type { ExchangeRate } from '../../domain/accounts/ledger-currencies';
import type {
  LedgerTransactionRecord,
  StoredLeg,
} from '../../domain/accounts/ledger-transaction-record';
import { withMetadata } from '../../domain/accounts/metadata';
import { metadataOf } from '../accounts/entries';
import { putNew } from '../table/attributes';
import { keys } from '../table/keys';

export const LEDGER_TRANSACTION_KIND = 'ledger-transaction';

/**
 * The `LEDGER_TRANSACTION#<id>` record a ledger transaction writes beside its legs (docs/contract.md
 * §16): with the claim, every leg's update, entry and pointer, at most 1 + 3 × 25 + 2 = 78 items.
 */
export function recordItem(tableName: string, record: LedgerTransactionRecord): TransactWriteItem {
  return putNew(tableName, {
    ...keys.ledgerTransaction(record.id),
    kind: LEDGER_TRANSACTION_KIND,
    ...record,
    legs: record.legs.map((leg) => ({ ...leg })),
    ...(record.rates === undefined ? {} : { rates: record.rates.map((rate) => ({ ...rate })) }),
  });
}

function toStoredLeg(value: unknown): StoredLeg {
  const leg = (value ?? {}) as Record<string, unknown>;
  return {
    accountId: String(leg.accountId),
    direction: leg.direction === 'credit' ? 'credit' : 'debit',
    amount: Number(leg.amount),
    ...(typeof leg.currency === 'string' ? { currency: leg.currency } : {}),
    entryId: String(leg.entryId),
  };
}

function toRate(value: unknown): ExchangeRate {
  const rate = (value ?? {}) as Record<string, unknown>;
  return { base: String(rate.base), quote: String(rate.quote), rate: String(rate.rate) };
}

export function toLedgerTransactionRecord(item: Record<string, unknown>): LedgerTransactionRecord {
  return {
    id: String(item.id),
    // A multi-currency transaction sent without a default has none (§35, §36).
    ...(typeof item.currency === 'string' ? { currency: item.currency } : {}),
    legs: Array.isArray(item.legs) ? item.legs.map(toStoredLeg) : [],
    ...(Array.isArray(item.rates) ? { rates: item.rates.map(toRate) } : {}),
    ...(typeof item.reference === 'string' ? { reference: item.reference } : {}),
    ...(typeof item.paymentId === 'string' ? { paymentId: item.paymentId } : {}),
    ...withMetadata(metadataOf(item.metadata)),
    ...(typeof item.reversedAmount === 'number' ? { reversedAmount: item.reversedAmount } : {}),
    createdAt: String(item.createdAt),
    // Ledger transactions from before effective dates count when they were written (§26).
    effectiveAt: String(item.effectiveAt ?? item.createdAt),
    ownerId: String(item.ownerId),
    origin: item.origin === 'event' ? 'event' : 'http',
  };
}
