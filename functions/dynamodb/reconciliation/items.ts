import type { Checkpoint } from '../../domain/reconciliation/model';
import { keys } from '../table/keys';

export { markerItem, RECONCILE_SHARD_COUNT, reconcileShardOf } from '../journal/marker';

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

/** The finding item, shared with the folder that sets credits aside (§36). */
export { findingAttributes, toFinding } from '../table/findings';
