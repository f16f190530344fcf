import { createHash } from 'node:crypto';
import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import type { Checkpoint } from '../../domain/reconciliation/model';
import { toAttributes } from '../table/attributes';
import { keys } from '../table/keys';

/*
 * The journal's word to the reconciler (docs/architecture.md "Reconciliation"): written by the
 * projector, read by `dynamodb/reconciliation/store.ts`, so the journal ranks below it. The
 * reconciler's checkpoint is here too: the journal's verifier reads how far it checked.
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

export const checkpointAttributes = (checkpoint: Checkpoint) => ({
  ...keys.reconcileCheckpoint(checkpoint.accountId),
  kind: 'reconcile-checkpoint',
  ...checkpoint,
});

export function toCheckpoint(item: Readonly<Record<string, unknown>>): Checkpoint {
  return {
    accountId: String(item.accountId),
    checkedSequence: Number(item.checkedSequence),
    balanceAfter: Number(item.balanceAfter),
    availableAfter: Number(item.availableAfter),
    ...(typeof item.hash === 'string' ? { hash: item.hash } : {}),
    ...(item.fullPassDone === true ? { fullPassDone: true as const } : {}),
    ...trailingOf(item.trailing),
  };
}

function trailingOf(value: unknown): Pick<Checkpoint, 'trailing'> {
  if (typeof value !== 'object' || value === null) return {};
  const { sequence, since } = value as Record<string, unknown>;
  if (typeof sequence !== 'number' || typeof since !== 'string') return {};
  return { trailing: { sequence, since } };
}
