import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { withMetadata } from '../../domain/accounts/metadata';
import type { LedgerTransactionRecord, StoredLeg } from '../../domain/ledger-transactions/model';
import { type IntakeRoutes, NO_INTAKE } from '../../domain/movements/intake';
import type { LedgerTransactionWrite } from '../../domain/movements/ledger-transaction';
import { metadataOf } from '../accounts/entries';
import { type LegRole, legParts } from '../movements/legs';
import { putNew } from '../table/attributes';
import { keys } from '../table/keys';
import type { TransactPart } from '../table/transact';

export const LEDGER_TRANSACTION_KIND = 'ledger-transaction';

/** The items of a ledger transaction besides its dedup record (claim or inbox). */
export type LedgerTransactionRole = LegRole | 'record';

export function recordItem(tableName: string, record: LedgerTransactionRecord): TransactWriteItem {
  return putNew(tableName, {
    ...keys.ledgerTransaction(record.id),
    kind: LEDGER_TRANSACTION_KIND,
    ...record,
    legs: record.legs.map((leg) => ({ ...leg })),
  });
}

/**
 * Every leg (guarded account change, entry, pointer), the first debited account's paymentId
 * item and the `LEDGER_TRANSACTION#<id>` record (docs/contract.md §16): with the claim, at most
 * 1 + 3 × 25 + 2 = 78 items, within DynamoDB's 100.
 */
export function ledgerTransactionParts(
  tableName: string,
  write: LedgerTransactionWrite,
  intake: IntakeRoutes = NO_INTAKE,
): TransactPart<LedgerTransactionRole>[] {
  return [
    ...legParts(tableName, write.legs, intake),
    { role: 'record', item: recordItem(tableName, write.record) },
  ];
}

function toStoredLeg(value: unknown): StoredLeg {
  const leg = (value ?? {}) as Record<string, unknown>;
  return {
    accountId: String(leg.accountId),
    direction: leg.direction === 'credit' ? 'credit' : 'debit',
    amount: Number(leg.amount),
    entryId: String(leg.entryId),
  };
}

export function toLedgerTransactionRecord(item: Record<string, unknown>): LedgerTransactionRecord {
  return {
    id: String(item.id),
    currency: String(item.currency),
    legs: Array.isArray(item.legs) ? item.legs.map(toStoredLeg) : [],
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
