import { type DynamoDBClient, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { keys } from '../table/keys';
import { storageError } from '../table/sdk-errors';

export interface OutboxMarks {
  /** Records that the job left for `export-jobs` (informational; delivery is at least once). */
  markDispatched(executionId: string, at: string): Promise<void>;
}

export function createOutboxStore(options: {
  client: DynamoDBClient;
  tableName: string;
}): OutboxMarks {
  return {
    async markDispatched(executionId, at) {
      try {
        await options.client.send(
          new UpdateItemCommand({
            TableName: options.tableName,
            Key: marshall(keys.outbox(executionId)),
            UpdateExpression: 'SET #dispatchedAt = :at ADD #dispatches :one',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: {
              '#dispatchedAt': 'dispatchedAt',
              '#dispatches': 'dispatches',
            },
            ExpressionAttributeValues: marshall({ ':at': at, ':one': 1 }),
          }),
        );
      } catch (error) {
        throw storageError(error);
      }
    },
  };
}
