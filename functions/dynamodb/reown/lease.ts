import {
  ConditionalCheckFailedException,
  type DynamoDBClient,
  PutItemCommand,
} from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { ReownLease } from '../../domain/reown/model';
import type { ReownPort } from '../../domain/reown/port';
import { toAttributes } from '../table/attributes';
import { deleteIfStill } from '../table/delete-if';
import { keys } from '../table/keys';
import { storageError } from '../table/sdk-errors';

/** `kind` of a re-own run's lease item (`REOWN_LEASE#<from>`, functions/dynamodb/table/keys.ts). */
export const REOWN_LEASE_KIND = 'reown-lease';

/**
 * The lease of an old owner (docs/contract.md §30): one conditional put takes it when there is
 * none, when it is this run's own (a renewal), or when it has expired and names the same pair
 * (a crashed run resumed). An expired lease to another target stays: the crashed run may have
 * moved items there already, and only finishing it keeps them together. So the lease never
 * expires by TTL: its `expiresAt` is an ISO-8601 string, which the table's TTL (epoch seconds
 * under the same attribute name) ignores; only its run's end deletes it.
 */
export function createReownLeases(
  client: DynamoDBClient,
  tableName: string,
): Pick<ReownPort, 'takeLease' | 'releaseLease'> {
  return {
    async takeLease(lease, now) {
      try {
        await client.send(
          new PutItemCommand({
            TableName: tableName,
            Item: toAttributes({
              ...keys.reownLease(lease.from),
              kind: REOWN_LEASE_KIND,
              ...lease,
            }),
            ConditionExpression:
              'attribute_not_exists(pk) OR #runId = :runId OR (#expiresAt <= :now AND #to = :to)',
            ExpressionAttributeNames: { '#expiresAt': 'expiresAt', '#runId': 'runId', '#to': 'to' },
            ExpressionAttributeValues: toAttributes({
              ':now': now,
              ':runId': lease.runId,
              ':to': lease.to,
            }),
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return { kind: 'taken' };
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw storageError(error);
        return { kind: 'held', lease: toLease(error.Item ? unmarshall(error.Item) : {}) };
      }
    },

    async releaseLease(lease) {
      // False: taken over after it expired; the other run's now, not ours to delete.
      await deleteIfStill(client, tableName, keys.reownLease(lease.from), 'runId', lease.runId);
    },
  };
}

function toLease(item: Record<string, unknown>): ReownLease {
  return {
    from: String(item.from ?? ''),
    to: String(item.to ?? ''),
    runId: String(item.runId ?? ''),
    expiresAt: String(item.expiresAt ?? ''),
  };
}
