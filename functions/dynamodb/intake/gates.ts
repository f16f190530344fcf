import type { AccountRecord } from '../../domain/accounts/model';
import type { TransactPart } from '../table/transact';
import { gateSyncItem } from './items';

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
