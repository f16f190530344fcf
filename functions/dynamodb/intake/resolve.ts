import { QueryCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { intakeShardOf } from '../../domain/accounts/pending-credits';
import { keys, SET_ASIDE_CREDIT_SK_PREFIX } from '../table/keys';
import { getItem } from '../table/reads';
import { storageError } from '../table/sdk-errors';
import { type StoreOptions, transactWithRetry } from '../table/transact';
import { pendingCreditItem, toPendingCredit } from './items';

/**
 * `intake resolve` (docs/contract.md §36): a set-aside credit goes back to pending with a new
 * `effectiveAt` after the account's `closedThrough`, in ONE transaction (the set-aside item's
 * conditional delete, the pending item put new); the stream then marks and queues the account.
 */
export type ResolveOutcome =
  | { readonly kind: 'resolved' }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'not_after_close'; readonly closedThrough: string };

export async function resolveSetAside(
  options: StoreOptions,
  accountId: string,
  entryId: string,
  effectiveAt: string,
): Promise<ResolveOutcome> {
  const { client, tableName } = options;
  const account = await getItem(client, tableName, keys.account(accountId));
  const shards = Number(account?.intakeShards ?? 0);
  if (account === undefined || shards === 0) return { kind: 'not_found' };
  const closedThrough = account.closedThrough;
  if (typeof closedThrough === 'string' && effectiveAt <= closedThrough) {
    return { kind: 'not_after_close', closedThrough };
  }
  const pk = keys.intakeGate(accountId, intakeShardOf(entryId, shards)).pk;
  let found: Record<string, unknown> | undefined;
  try {
    const { Items = [] } = await client.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        FilterExpression: '#entryId = :entryId',
        ExpressionAttributeNames: { '#entryId': 'entryId' },
        ExpressionAttributeValues: marshall({
          ':pk': pk,
          ':prefix': SET_ASIDE_CREDIT_SK_PREFIX,
          ':entryId': entryId,
        }),
        ConsistentRead: true,
      }),
    );
    found = Items[0] === undefined ? undefined : unmarshall(Items[0]);
  } catch (error) {
    throw storageError(error);
  }
  if (found === undefined) return { kind: 'not_found' };
  const credit = toPendingCredit(found);
  const { entry, acceptedAt, shard } = credit;
  const outcome = await transactWithRetry(client, [
    {
      role: 'set_aside',
      decisive: true,
      item: {
        Delete: {
          TableName: tableName,
          Key: marshall(keys.setAsideCredit(accountId, shard, acceptedAt, entry.id)),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
    },
    {
      role: 'pending',
      item: pendingCreditItem(tableName, { entry: { ...entry, effectiveAt }, acceptedAt, shard }),
    },
  ]);
  return outcome.kind === 'committed' ? { kind: 'resolved' } : { kind: 'not_found' };
}
