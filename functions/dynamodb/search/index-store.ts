import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { IndexHead, SearchIndexPort } from '../../domain/search/port';
import { getItem } from '../table/reads';
import { storageError } from '../table/sdk-errors';
import { retryPolicy, type StoreOptions, transactWithRetry } from '../table/transact';
import { indexWrites, searchKeys, toIndexedObject } from './items';

/** The indexer's port on the table (docs/contract.md §34). */
export function createSearchIndexStore(options: StoreOptions): SearchIndexPort {
  const { client, tableName } = options;
  const retry = retryPolicy(options);

  return {
    async indexed(kind, id) {
      const item = await getItem(client, tableName, searchKeys.object(kind, id));
      return item ? { object: toIndexedObject(item), revision: Number(item.revision) } : undefined;
    },

    async write(previous, next, plan) {
      const items = indexWrites(tableName, previous, next, plan);
      const parts = items.map((item, i) => ({ role: i === 0 ? 'record' : 'index', item }));
      const outcome = await transactWithRetry(client, parts, retry);
      return outcome.kind === 'committed' ? { kind: 'written' } : { kind: 'moved' };
    },

    readHead: async (accountId) =>
      toHead(await getItem(client, tableName, searchKeys.head(accountId))),

    async raiseHead(accountId, head) {
      try {
        await client.send(
          new UpdateItemCommand({
            TableName: tableName,
            Key: marshall(searchKeys.head(accountId)),
            UpdateExpression: 'SET #kind = :kind, #sequence = :sequence, #at = :at',
            ConditionExpression: 'attribute_not_exists(#sequence) OR #sequence < :sequence',
            ExpressionAttributeNames: {
              '#kind': 'kind',
              '#sequence': 'sequence',
              '#at': 'committedAt',
            },
            ExpressionAttributeValues: marshall({
              ':kind': 'search-head',
              ':sequence': head.sequence,
              ':at': head.committedAt,
            }),
          }),
        );
      } catch (error) {
        // Another run raised it as far or further: nothing to do.
        if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return;
        throw storageError(error);
      }
    },
  };
}

export function toHead(item: Record<string, unknown> | undefined): IndexHead | undefined {
  if (!item) return undefined;
  return { sequence: Number(item.sequence), committedAt: String(item.committedAt) };
}
