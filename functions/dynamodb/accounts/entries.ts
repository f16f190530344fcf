import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import type { Metadata } from '../../domain/accounts/metadata';
import {
  type LedgerEntry,
  type ReversalTarget,
  TRANSACTION_TYPES,
} from '../../domain/accounts/model';
import { putNew } from '../table/attributes';
import { keys } from '../table/keys';
import { effectiveIndexAttributes } from './effective-history';

/** Ledger entries as stored: the listing item and its id-keyed pointer (functions/dynamodb/table/keys.ts). */

export const ENTRY_POINTER_KIND = 'entry-pointer';

/** `position`: the entry's place in its request (`requestPosition`, docs/contract.md §36). */
export function entryItem(tableName: string, entry: LedgerEntry, position = 0): TransactWriteItem {
  return putNew(tableName, {
    ...keys.entry(entry.accountId, entry.createdAt, entry.id),
    kind: 'entry',
    ...entry,
    // The effective-time index (docs/contract.md §26): statements read a window of it.
    ...effectiveIndexAttributes(entry, position),
  });
}

/**
 * Finds the entry by its id alone (a reversal names only the id, docs/contract.md §16): what the
 * entry is, where it sits, and — once reversed — `reversedAmount`, the guard of its reversals.
 */
export function entryPointerItem(tableName: string, entry: LedgerEntry): TransactWriteItem {
  return putNew(tableName, {
    ...keys.entryPointer(entry.id),
    kind: ENTRY_POINTER_KIND,
    id: entry.id,
    accountId: entry.accountId,
    type: entry.type,
    amount: entry.amount,
    currency: entry.currency,
    createdAt: entry.createdAt,
  });
}

/** An entry and its pointer: what every new entry writes. */
export const newEntryItems = (tableName: string, entry: LedgerEntry, position = 0) =>
  [entryItem(tableName, entry, position), entryPointerItem(tableName, entry)] as const;

export function paymentItem(tableName: string, entry: LedgerEntry): TransactWriteItem | undefined {
  if (entry.paymentId === undefined) return undefined;
  return putNew(tableName, {
    ...keys.payment(entry.accountId, entry.paymentId),
    kind: 'payment',
    entryId: entry.id,
    createdAt: entry.createdAt,
  });
}

const optionalText = (value: unknown) => (typeof value === 'string' ? value : undefined);

function reversalTargetOf(value: unknown): ReversalTarget | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { kind, id } = value as Record<string, unknown>;
  if (kind !== 'entry' && kind !== 'transfer' && kind !== 'ledger_transaction') return undefined;
  return { kind, id: String(id) };
}

export function metadataOf(value: unknown): Metadata | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
}

/** A stored entry (listing item or pointer) as the domain reads it; absent fields stay absent. */
export function toLedgerEntry(item: Record<string, unknown>): LedgerEntry {
  const direction = item.direction === 'debit' || item.direction === 'credit';
  const entry: LedgerEntry = {
    id: String(item.id),
    accountId: String(item.accountId),
    type: TRANSACTION_TYPES.find((type) => type === item.type) ?? 'credit',
    amount: Number(item.amount),
    currency: String(item.currency),
    reference: optionalText(item.reference),
    paymentId: optionalText(item.paymentId),
    transferId: optionalText(item.transferId),
    counterpartyAccountId: optionalText(item.counterpartyAccountId),
    holdId: optionalText(item.holdId),
    ledgerTransactionId: optionalText(item.ledgerTransactionId),
    reversalOf: reversalTargetOf(item.reversalOf),
    reversalId: optionalText(item.reversalId),
    direction: direction ? (item.direction as 'debit' | 'credit') : undefined,
    metadata: metadataOf(item.metadata),
    reversedAmount: typeof item.reversedAmount === 'number' ? item.reversedAmount : undefined,
    origin: item.origin === 'event' ? 'event' : 'http',
    createdAt: String(item.createdAt),
    // Entries from before effective dates count when they were written (docs/contract.md §26).
    effectiveAt: String(item.effectiveAt ?? item.createdAt),
  };
  // Absent, not `undefined`: a JSON Lines export writes the listing item verbatim.
  return Object.fromEntries(
    Object.entries(entry).filter(([, value]) => value !== undefined),
  ) as unknown as LedgerEntry;
}
