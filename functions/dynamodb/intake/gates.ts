import type { AccountRecord } from '../../domain/accounts/model';
import type { TransactPart } from '../table/transact';
import { gateCloseItem, gateSyncItem } from './items';

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

/** The gates of an account being closed: each must count no pending credit (§24). */
export function gateCloseParts(
  tableName: string,
  account: AccountRecord,
): TransactPart<`gate:${number}`>[] {
  const shards = account.intakeShards ?? 0;
  return Array.from({ length: shards }, (_, shard) => ({
    role: `gate:${shard}` as const,
    item: gateCloseItem(tableName, account.id, shard),
  }));
}

/** Whether a cancelled write failed on one of the account's gates. */
export const gateFailed = (failed: ReadonlyMap<string, unknown>): boolean =>
  [...failed.keys()].some((role) => role.startsWith('gate:'));
