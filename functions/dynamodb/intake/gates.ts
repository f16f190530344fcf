import type { AccountRecord } from '../../domain/accounts/model';
import type { TransactPart } from '../table/transact';
import { gateCloseItem, gateSyncItem, postedCheckItem } from './items';
import type { IntakePartition } from './partitions';

/**
 * Every gate of an account that has intake partitions (`intakeShards`), synced to `account` as
 * it will stand after the write: what creation, a settings change, closing, a period close and
 * a re-own add to their own transaction, so a gate never disagrees with its account.
 */
export function gateParts(
  tableName: string,
  account: AccountRecord,
): TransactPart<`gate:${number}`>[] {
  const shards = account.intakeShards ?? 0;
  return Array.from({ length: shards }, (_, shard) => ({
    role: `gate:${shard}` as const,
    item: gateSyncItem(tableName, account, shard),
  }));
}

/**
 * The gates of an account being closed (docs/contract.md §24), from its partitions as read: each
 * gate closes while it accepted what was read, and each partition's posted count must equal it.
 * Undefined: a partition still holds pending credits, so the account is not empty.
 */
export function gateCloseParts(
  tableName: string,
  accountId: string,
  partitions: readonly IntakePartition[],
): TransactPart<`gate:${number}` | `posted:${number}`>[] | undefined {
  const parts: TransactPart<`gate:${number}` | `posted:${number}`>[] = [];
  for (const { shard, accepted, posted, pending } of partitions) {
    if (accepted === undefined) continue;
    if (pending.length > 0 || accepted !== posted) return undefined;
    parts.push(
      { role: `gate:${shard}`, item: gateCloseItem(tableName, accountId, shard, accepted) },
      { role: `posted:${shard}`, item: postedCheckItem(tableName, accountId, shard, posted) },
    );
  }
  return parts;
}

/** Whether a cancelled write failed on one of the account's gates or posted counts. */
export const gateFailed = (failed: ReadonlyMap<string, unknown>): boolean =>
  [...failed.keys()].some((role) => role.startsWith('gate:') || role.startsWith('posted:'));
