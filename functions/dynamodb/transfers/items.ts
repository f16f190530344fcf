import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import type { TransferRecord } from '../../domain/accounts/transfer-record';
import { metadataOf } from '../accounts/entries';
import { putNew } from '../table/attributes';
import { keys } from '../table/keys';

/** The `TRANSFER#<id>` record a transfer writes beside its legs (docs/contract.md §10). */
export function transferRecordItem(tableName: string, transfer: TransferRecord): TransactWriteItem {
  return putNew(tableName, { ...keys.transfer(transfer.id), kind: 'transfer', ...transfer });
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
