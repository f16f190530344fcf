import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { QueryCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { DEFAULT_INTAKE_SHARDS } from '../../../functions/domain/accounts/model';
import { keys, PENDING_CREDIT_SK_PREFIX } from '../../../functions/dynamodb/table/keys';

/** The raw items of one intake partition (its gate and pending credits). */
export async function intakePartition(
  client: DynamoDBClient,
  tableName: string,
  accountId: string,
  shard: number,
): Promise<Record<string, unknown>[]> {
  const { Items = [] } = await client.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: marshall({ ':pk': keys.intakeGate(accountId, shard).pk }),
      ConsistentRead: true,
    }),
  );
  return Items.map((item) => unmarshall(item));
}

/** Every pending credit of a deferred account, and its counters summed over the partitions. */
export async function intakeOf(
  client: DynamoDBClient,
  tableName: string,
  accountId: string,
  shards = DEFAULT_INTAKE_SHARDS,
) {
  const pending: Record<string, unknown>[] = [];
  let posted = 0;
  let accepted = 0;
  for (let shard = 0; shard < shards; shard += 1) {
    for (const item of await intakePartition(client, tableName, accountId, shard)) {
      if (item.sk === 'GATE') accepted += Number(item.accepted);
      else if (item.sk === 'POSTED') posted += Number(item.posted);
      else if (String(item.sk).startsWith(PENDING_CREDIT_SK_PREFIX)) pending.push(item);
    }
  }
  // What the counters say waits: accepted by the gates less posted by the folder.
  return { pending, counted: accepted - posted, accepted };
}
