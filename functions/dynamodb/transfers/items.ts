import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { type IntakeRoutes, NO_INTAKE } from '../../domain/movements/intake';
import { type TransferWrite, transferMovement } from '../../domain/movements/transfer';
import type { TransferRecord } from '../../domain/transfers/model';
import { metadataOf } from '../accounts/entries';
import { type LegRole, legParts } from '../movements/legs';
import { putNew } from '../table/attributes';
import { keys } from '../table/keys';
import type { TransactPart } from '../table/transact';

/** The items of a transfer besides its dedup record (claim or inbox), by what each guards. */
export type TransferRole = LegRole | 'transfer';

export function transferRecordItem(tableName: string, transfer: TransferRecord): TransactWriteItem {
  return putNew(tableName, { ...keys.transfer(transfer.id), kind: 'transfer', ...transfer });
}

/**
 * The two-leg movement (docs/contract.md §10): debit of the source (owner, currency, open,
 * cover; leg 0), credit of the destination (owner, currency, open, cap; leg 1), both entries and
 * their pointers, the source's paymentId item, and the `TRANSFER#<id>` record.
 */
export function transferParts(
  tableName: string,
  write: TransferWrite,
  intake: IntakeRoutes = NO_INTAKE,
): TransactPart<TransferRole>[] {
  return [
    ...legParts(tableName, transferMovement(write), intake),
    { role: 'transfer', item: transferRecordItem(tableName, write.transfer) },
  ];
}

export function toTransferRecord(item: Record<string, unknown>): TransferRecord {
  const metadata = metadataOf(item.metadata);
  return {
    id: String(item.id),
    fromAccountId: String(item.fromAccountId),
    toAccountId: String(item.toAccountId),
    amount: Number(item.amount),
    currency: String(item.currency),
    ...(typeof item.reference === 'string' ? { reference: item.reference } : {}),
    ...(typeof item.paymentId === 'string' ? { paymentId: item.paymentId } : {}),
    ...(metadata ? { metadata } : {}),
    ...(typeof item.reversedAmount === 'number' ? { reversedAmount: item.reversedAmount } : {}),
    createdAt: String(item.createdAt),
    // Transfers from before effective dates count when they were written (§26).
    effectiveAt: String(item.effectiveAt ?? item.createdAt),
    ownerId: String(item.ownerId),
    origin: item.origin === 'event' ? 'event' : 'http',
  };
}
