import {
  ConditionalCheckFailedException,
  type DynamoDBClient,
  UpdateItemCommand,
  type UpdateItemCommandInput,
} from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { PendingCredit } from '../../domain/accounts/pending-credits';
import { keys, PENDING_CREDIT_SK_PREFIX, SET_ASIDE_CREDIT_SK_PREFIX } from '../table/keys';
import { queryAll } from '../table/reads';
import { storageError } from '../table/sdk-errors';
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
      // Set-aside credits (§36) are still accepted and unposted: closes and sums count them.
      const pending = items
        .filter((item) =>
          [PENDING_CREDIT_SK_PREFIX, SET_ASIDE_CREDIT_SK_PREFIX].some((prefix) =>
            String(item.sk).startsWith(prefix),
          ),
        )
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
 * Step 1 of a period close (docs/contract.md §26): one gate raises `closedThrough` to `through`
 * with its own monotonic update — never lowered, no `accepted` condition, so credits in flight
 * never cancel it. From then on the gate refuses credits effective at or before `through`.
 */
export function gateFenceItem(
  tableName: string,
  accountId: string,
  shard: number,
  through: string,
): UpdateItemCommandInput {
  return {
    TableName: tableName,
    Key: marshall(keys.intakeGate(accountId, shard)),
    UpdateExpression: 'SET #closedThrough = :through',
    ConditionExpression:
      'attribute_exists(pk) AND (attribute_not_exists(#closedThrough) OR #closedThrough < :through)',
    ExpressionAttributeNames: { '#closedThrough': 'closedThrough' },
    ExpressionAttributeValues: marshall({ ':through': through }),
  };
}

/**
 * Fences every gate of an account through `through` (one UpdateItem each, in parallel). A gate
 * already fenced as far, or missing (nothing can be accepted through it), is left as it is.
 */
export async function fenceGates(
  client: DynamoDBClient,
  tableName: string,
  accountId: string,
  shards: number,
  through: string,
): Promise<void> {
  await Promise.all(
    Array.from({ length: shards }, async (_, shard) => {
      try {
        await client.send(
          new UpdateItemCommand(gateFenceItem(tableName, accountId, shard, through)),
        );
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return;
        throw storageError(error);
      }
    }),
  );
}
