import {
  ConditionalCheckFailedException,
  DeleteItemCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { IntakeDuePort } from '../../domain/intake/port';
import { INTAKE_DUE_KIND } from '../../domain/intake/sweep';
import { DUE_INDEX, dueShardOf } from '../table/due-index';
import { keys } from '../table/keys';
import { getItem } from '../table/reads';
import { storageError } from '../table/sdk-errors';
import type { StoreOptions } from '../table/transact';
import { oldestPending } from './lag';

/**
 * The `INTAKE_DUE` markers of deferred accounts (docs/contract.md §24;
 * functions/dynamodb/table/keys.ts `intakeDue`): items of kind `intake-due` in the sweeper's due
 * index (functions/dynamodb/table/due-index.ts), one per account with pending credits.
 */
const NAMES = {
  '#kind': 'kind',
  '#accountId': 'accountId',
  '#since': 'since',
  '#marks': 'marks',
  '#dueShard': DUE_INDEX.shardAttribute,
  '#dueAt': DUE_INDEX.dueAtAttribute,
};

/** One write; a failed condition means the marker moved on (or went): nothing to do. */
async function conditional(write: Promise<unknown>): Promise<void> {
  try {
    await write;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return;
    throw storageError(error);
  }
}

export function createIntakeDueStore(options: StoreOptions): IntakeDuePort {
  const { client, tableName } = options;
  const key = (accountId: string) => marshall(keys.intakeDue(accountId));
  return {
    // `since` and `dueAt` stay those of the oldest credit marked since the account was drained.
    mark: (accountId, acceptedAt, dueAt) =>
      conditional(
        client.send(
          new UpdateItemCommand({
            TableName: tableName,
            Key: key(accountId),
            UpdateExpression:
              'SET #kind = :kind, #accountId = :accountId, #dueShard = :shard, ' +
              '#since = if_not_exists(#since, :since), #dueAt = if_not_exists(#dueAt, :dueAt) ' +
              'ADD #marks :one',
            ExpressionAttributeNames: NAMES,
            ExpressionAttributeValues: marshall({
              ':kind': INTAKE_DUE_KIND,
              ':accountId': accountId,
              ':shard': dueShardOf(accountId),
              ':since': acceptedAt,
              ':dueAt': dueAt.getTime(),
              ':one': 1,
            }),
          }),
        ),
      ),

    async marks(accountId) {
      const item = await getItem(client, tableName, keys.intakeDue(accountId));
      return item === undefined ? undefined : Number(item.marks ?? 0);
    },

    clear: (accountId, marks) =>
      conditional(
        client.send(
          new DeleteItemCommand({
            TableName: tableName,
            Key: key(accountId),
            ConditionExpression: '#marks = :marks',
            ExpressionAttributeNames: { '#marks': 'marks' },
            ExpressionAttributeValues: marshall({ ':marks': marks }),
          }),
        ),
      ),

    async oldestPendingAt(accountId) {
      const account = await getItem(client, tableName, keys.account(accountId));
      const shards = Number(account?.intakeShards ?? 0);
      const oldest = await Promise.all(
        Array.from({ length: shards }, (_, shard) =>
          oldestPending(client, tableName, accountId, shard, 1),
        ),
      );
      return oldest
        .flat()
        .map((credit) => credit.acceptedAt)
        .sort()[0];
    },

    postpone: (accountId, since, dueAt) =>
      conditional(
        client.send(
          new UpdateItemCommand({
            TableName: tableName,
            Key: key(accountId),
            UpdateExpression: 'SET #since = :since, #dueAt = :dueAt',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#since': 'since', '#dueAt': DUE_INDEX.dueAtAttribute },
            ExpressionAttributeValues: marshall({ ':since': since, ':dueAt': dueAt.getTime() }),
          }),
        ),
      ),
  };
}
