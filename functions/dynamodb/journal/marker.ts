import { createHash } from 'node:crypto';
import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { toAttributes } from '../table/attributes';
import { keys } from '../table/keys';

/*
 * The journal's word to the reconciler (docs/architecture.md "Reconciliation"): written by the
 * projector, read by `dynamodb/reconciliation/store.ts`, so the journal ranks below it.
 */

/**
 * Partitions of the reconciler's markers. The reconciler reads 0 … N − 1, so N may grow
 * (markers of the old count stay readable) but never shrink.
 */
export const RECONCILE_SHARD_COUNT = 8;

export const reconcileShardOf = (accountId: string): number =>
  createHash('sha256').update(accountId).digest().readUInt32BE(0) % RECONCILE_SHARD_COUNT;

const MARKER_KIND = 'reconcile-marker';

/**
 * The marker the projector writes in the same transaction as an account's new records: the
 * account and its journal's last sequence. Overwritten by every later update of that account.
 */
export function markerItem(
  tableName: string,
  accountId: string,
  lastSequence: number,
): TransactWriteItem {
  return {
    Put: {
      TableName: tableName,
      Item: toAttributes({
        ...keys.reconcileMarker(reconcileShardOf(accountId), accountId),
        kind: MARKER_KIND,
        accountId,
        lastSequence,
      }),
    },
  };
}
