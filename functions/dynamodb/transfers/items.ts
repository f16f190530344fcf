import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import type { TransferRecord, TransferWrite } from '../../domain/transfers/model';
import type { RejectedSide } from '../../domain/transfers/port';
import { accountChangeItem } from '../accounts/account-change';
import { entryItem, paymentItem, toAccountRecord } from '../accounts/items';
import { putNew } from '../table/attributes';
import { keys } from '../table/keys';
import type { TransactPart } from '../table/transact';

/** The items of a transfer besides its dedup record (claim or inbox), by what each guards. */
export type TransferRole = 'from' | 'to' | 'out' | 'in' | 'transfer' | 'payment';

function transferRecordItem(tableName: string, transfer: TransferRecord): TransactWriteItem {
  return putNew(tableName, { ...keys.transfer(transfer.id), kind: 'transfer', ...transfer });
}

/**
 * Debit of the source (owner, currency, available cover), credit of the destination (owner,
 * currency), both legs, the `TRANSFER#<id>` record and the source's paymentId item
 * (docs/contract.md §10). A transfer moves `balance` and `available` alike on both sides.
 */
export function transferParts(
  tableName: string,
  write: TransferWrite,
): TransactPart<TransferRole>[] {
  const { transfer, legs, ownerId } = write;
  const [out, incoming] = legs;
  const at = transfer.createdAt;
  const parts: TransactPart<TransferRole>[] = [
    {
      role: 'from',
      item: accountChangeItem(tableName, {
        accountId: transfer.fromAccountId,
        changes: [
          {
            kind: 'transfer_out',
            balanceDelta: -transfer.amount,
            availableDelta: -transfer.amount,
            at,
            entryId: out.id,
            transferId: transfer.id,
          },
        ],
        ownerId,
        currency: transfer.currency,
        requireAvailableAtLeast: transfer.amount,
      }),
    },
    {
      role: 'to',
      item: accountChangeItem(tableName, {
        accountId: transfer.toAccountId,
        changes: [
          {
            kind: 'transfer_in',
            balanceDelta: transfer.amount,
            availableDelta: transfer.amount,
            at,
            entryId: incoming.id,
            transferId: transfer.id,
          },
        ],
        ownerId,
        currency: transfer.currency,
      }),
    },
    { role: 'out', item: entryItem(tableName, out) },
    { role: 'in', item: entryItem(tableName, incoming) },
    { role: 'transfer', item: transferRecordItem(tableName, transfer) },
  ];
  const payment = paymentItem(tableName, out);
  if (payment) parts.push({ role: 'payment', item: payment });
  return parts;
}

/** The refusals of a cancelled transfer after its dedup record: accounts first, then paymentId. */
export function transferRejection(
  failed: ReadonlyMap<string, Record<string, unknown> | undefined>,
): { kind: 'accounts_rejected'; sides: RejectedSide[] } | { kind: 'payment_id_taken' } | undefined {
  const sides: RejectedSide[] = [];
  for (const side of ['from', 'to'] as const) {
    if (!failed.has(side)) continue;
    const account = failed.get(side);
    sides.push({ side, account: account ? toAccountRecord(account) : undefined });
  }
  if (sides.length > 0) return { kind: 'accounts_rejected', sides };
  if (failed.has('payment')) return { kind: 'payment_id_taken' };
  return undefined;
}

export function toTransferRecord(item: Record<string, unknown>): TransferRecord {
  return {
    id: String(item.id),
    fromAccountId: String(item.fromAccountId),
    toAccountId: String(item.toAccountId),
    amount: Number(item.amount),
    currency: String(item.currency),
    ...(typeof item.reference === 'string' ? { reference: item.reference } : {}),
    ...(typeof item.paymentId === 'string' ? { paymentId: item.paymentId } : {}),
    createdAt: String(item.createdAt),
    ownerId: String(item.ownerId),
    origin: item.origin === 'event' ? 'event' : 'http',
  };
}
