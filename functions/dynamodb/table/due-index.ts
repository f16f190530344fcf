import { createHash } from 'node:crypto';

/**
 * The sparse "due" index the sweeper reads (docs/contract.md §11 "Sweeper"): an item
 * carries `dueShard` and `dueAt` only while something must happen to it at `dueAt` (an active
 * hold's expiry, a running execution's deadline) and drops both when it is settled, so the
 * index holds exactly the unsettled work. Neither is the TTL attribute `expiresAt`: DynamoDB
 * would delete the item.
 */
export const DUE_INDEX = {
  name: 'due',
  /** Number, 0 … DUE_SHARD_COUNT − 1: spreads due items over partitions of the index. */
  shardAttribute: 'dueShard',
  /** Number, epoch milliseconds at which the item falls due. */
  dueAtAttribute: 'dueAt',
} as const;

/**
 * Index partitions. Fixed for the life of a table: items keep the shard they were written with,
 * and the sweeper reads 0 … N − 1, so lowering N would strand items in the higher shards.
 */
export const DUE_SHARD_COUNT = 8;

/** The shard an item id lands in: stable, so every writer of the same item agrees. */
export function dueShardOf(id: string, shardCount = DUE_SHARD_COUNT): number {
  return createHash('sha256').update(id).digest().readUInt32BE(0) % shardCount;
}

/** The two attributes that put an item into the due index. */
export function dueIndexAttributes(id: string, dueAt: Date): Record<string, number> {
  return {
    [DUE_INDEX.shardAttribute]: dueShardOf(id),
    [DUE_INDEX.dueAtAttribute]: dueAt.getTime(),
  };
}

/** UpdateExpression clause (with its names) that takes a settled item out of the due index. */
export const LEAVE_DUE_INDEX = {
  clause: 'REMOVE #dueShard, #dueAt',
  names: { '#dueShard': DUE_INDEX.shardAttribute, '#dueAt': DUE_INDEX.dueAtAttribute },
} as const;
