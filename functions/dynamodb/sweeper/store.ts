import { type DynamoDBClient, QueryCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { DuePage, DuePort } from '../../domain/sweeper/port';
import { DUE_INDEX } from '../table/due-index';
import { storageError } from '../table/sdk-errors';

export interface DueStoreOptions {
  readonly client: DynamoDBClient;
  readonly tableName: string;
}

/** Reads the sparse due index (functions/dynamodb/table/due-index.ts) for the sweeper. */
export function createDueStore(options: DueStoreOptions): DuePort {
  const { client, tableName } = options;
  return {
    async listDue(shard, dueBy, limit, after): Promise<DuePage> {
      try {
        const page = await client.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: DUE_INDEX.name,
            KeyConditionExpression: '#shard = :shard AND #dueAt <= :dueBy',
            ExpressionAttributeNames: {
              '#shard': DUE_INDEX.shardAttribute,
              '#dueAt': DUE_INDEX.dueAtAttribute,
            },
            ExpressionAttributeValues: marshall({ ':shard': shard, ':dueBy': dueBy }),
            ScanIndexForward: true,
            Limit: limit,
            ...(after === undefined ? {} : { ExclusiveStartKey: JSON.parse(after) }),
          }),
        );
        const items = (page.Items ?? []).map((raw) => {
          const attributes = unmarshall(raw);
          return {
            kind: String(attributes.kind),
            dueAt: Number(attributes[DUE_INDEX.dueAtAttribute]),
            attributes,
          };
        });
        const next = page.LastEvaluatedKey ? JSON.stringify(page.LastEvaluatedKey) : undefined;
        return { items, next };
      } catch (error) {
        throw storageError(error);
      }
    },
  };
}
