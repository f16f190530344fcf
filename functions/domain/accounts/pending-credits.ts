import type { LedgerEntry } from './model';
/**
 * Pending credits one posting transaction takes (docs/contract.md §24): one account update, n
 * entries, n pointers, n pending items removed and a gate per shard they came from.
 */
export const MAX_CREDITS_PER_POSTING = 30;
/**
 * A deployment's `intakeShards` (CDK context, env `INTAKE_SHARDS`) lies in 1 … 9, so a posting
 * of 30 fits one TransactWriteItems whatever shards they came from: 1 + 3 × 30 + 9 = 100.
 */
export const MIN_INTAKE_SHARDS = 1;
export const MAX_INTAKE_SHARDS = 9;

/**
 * A credit accepted into a deferred account and not yet posted: the entry as it will be
 * written (its id fixed at intake), when it was accepted and the intake shard it lies in.
 */
export interface PendingCredit {
  readonly entry: LedgerEntry;
  /** The intake commit's time (ISO 8601): its default `effectiveAt` (§31) and its lag. */
  readonly acceptedAt: string;
  readonly shard: number;
  /** Present when the folder set it aside (§36): it never posts until an operator resolves it. */
  readonly setAside?: SetAside;
}

/** Why and when a pending credit the folder can never post was set aside (§36). */
export interface SetAside {
  /** The refusal code (a precedence row with `setsAsideCredit`). */
  readonly reason: string;
  readonly setAsideAt: string;
}

/**
 * The shard of an entry id (FNV-1a over its text): fixed by the id alone, so the same credit
 * always lands in the same intake partition, and random ids spread over all of them.
 */
export function intakeShardOf(entryId: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < entryId.length; i += 1) {
    hash ^= entryId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % shards;
}
