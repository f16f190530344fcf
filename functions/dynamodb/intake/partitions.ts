import type { DynamoDBClient, TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { PendingCredit } from '../../domain/intake/model';
import { keys, PENDING_CREDIT_SK_PREFIX } from '../table/keys';
import { queryAll } from '../table/reads';
import { toPendingCredit } from './items';

/** One intake partition as read: its gate's `accepted` count and its pending credits, oldest first. */
export interface IntakePartition {
  readonly shard: number;
  /** undefined: the partition has no gate. */
  readonly accepted: number | undefined;
  /** What the folder posted of it so far (0 before its first posting). */
  readonly posted: number;
  readonly pending: readonly PendingCredit[];
}

/** Every intake partition of an account, strongly consistent (one Query each, in parallel). */
export async function readIntakePartitions(
  client: DynamoDBClient,
  tableName: string,
  accountId: string,
  shards: number,
): Promise<IntakePartition[]> {
  return Promise.all(
    Array.from({ length: shards }, async (_, shard): Promise<IntakePartition> => {
      const items = await queryAll(client, {
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: marshall({ ':pk': keys.intakeGate(accountId, shard).pk }),
        ConsistentRead: true,
      });
      const gate = items.find((item) => item.sk === keys.intakeGate(accountId, shard).sk);
      const posted = items.find((item) => item.sk === keys.intakePosted(accountId, shard).sk);
      const pending = items
        .filter((item) => String(item.sk).startsWith(PENDING_CREDIT_SK_PREFIX))
        .map(toPendingCredit);
      return {
        shard,
        accepted: gate ? Number(gate.accepted ?? 0) : undefined,
        posted: Number(posted?.posted ?? 0),
        pending,
      };
    }),
  );
}

/**
 * A period close on one gate (docs/contract.md §24, §26): the gate takes `closedThrough`, while
 * it accepted nothing since it was read (`accepted` as seen), so no pending credit effective in
 * the closed period slips in between the check and the close.
 */
export function gatePeriodItem(
  tableName: string,
  accountId: string,
  partition: IntakePartition,
  through: string,
): TransactWriteItem {
  return {
    Update: {
      TableName: tableName,
      Key: marshall(keys.intakeGate(accountId, partition.shard)),
      UpdateExpression: 'SET #closedThrough = :through',
      ConditionExpression: 'attribute_exists(pk) AND #accepted = :seen',
      ExpressionAttributeNames: { '#closedThrough': 'closedThrough', '#accepted': 'accepted' },
      ExpressionAttributeValues: marshall({ ':through': through, ':seen': partition.accepted }),
    },
  };
}
