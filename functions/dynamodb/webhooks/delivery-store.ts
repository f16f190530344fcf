import {
  ConditionalCheckFailedException,
  PutItemCommand,
  UpdateItemCommand,
  type UpdateItemCommandInput,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { WebhookDeliveryPort } from '../../domain/webhooks/delivery-port';
import { toAttributes } from '../table/attributes';
import { keys, TTL_ATTRIBUTE } from '../table/keys';
import { getItem } from '../table/reads';
import { storageError } from '../table/sdk-errors';
import { retryPolicy, transactWithRetry } from '../table/transact';
import {
  deliveryAttributes,
  deliveryKeys,
  expiresAfterRetention,
  toCursor,
  toDelivery,
} from './delivery-items';
import { createDeliveryReads } from './delivery-reads';
import { toEndpoint } from './items';
import { type JournalReadOptions, nextEvent, startPosition } from './journal-reads';
import { createWebhookEndpointStore } from './store';

/** The cursor still where it was read, nothing in flight. */
const CURSOR_FREE = '#version = :version AND attribute_not_exists(#current)';

/** Webhook deliveries on the table: the delivery function's and the deliveries routes' store. */
export function createWebhookDeliveryStore(options: JournalReadOptions): WebhookDeliveryPort {
  const { client, tableName } = options;
  const retry = retryPolicy(options);
  const endpoints = createWebhookEndpointStore(options);
  const reads = createDeliveryReads(options);

  /** One conditional update; false when its condition failed. */
  async function update(input: Omit<UpdateItemCommandInput, 'TableName'>) {
    try {
      return await client.send(new UpdateItemCommand({ TableName: tableName, ...input }));
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw storageError(error);
    }
  }

  const moveCursor = (endpointId: string, accountId: string, set: string) => ({
    Key: marshall(deliveryKeys.cursor(endpointId, accountId)),
    UpdateExpression: `SET ${set}, #version = :next`,
    ExpressionAttributeNames: { '#version': 'version', '#current': 'current' },
    ConditionExpression: CURSOR_FREE,
  });

  return {
    async endpointsOfAccount(accountId) {
      const account = await getItem(client, tableName, keys.account(accountId));
      if (typeof account?.ownerId !== 'string') return undefined;
      return {
        ownerId: account.ownerId,
        endpoints: await endpoints.listEndpoints(account.ownerId),
      };
    },

    getEndpoint: (ownerId, endpointId) => endpoints.getEndpoint(ownerId, endpointId),

    async cursor(endpoint, accountId) {
      const key = deliveryKeys.cursor(endpoint.id, accountId);
      const found = await getItem(client, tableName, key);
      if (found) return toCursor(found);
      const cursor = {
        endpointId: endpoint.id,
        ownerId: endpoint.ownerId,
        accountId,
        position: await startPosition(options, accountId, endpoint.createdAt),
        version: 0,
      };
      try {
        await client.send(
          new PutItemCommand({
            TableName: tableName,
            Item: toAttributes({ ...key, kind: 'webhook-cursor', ...cursor }),
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
        return cursor;
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw storageError(error);
        const again = await getItem(client, tableName, key);
        if (!again) throw new Error('cursor vanished after a conflicting create');
        return toCursor(again);
      }
    },

    cursorsOf: reads.cursorsOf,

    nextEvent: (accountId, position) => nextEvent(options, accountId, position),

    async keepMonitorEvent(accountId, event) {
      const at = new Date().toISOString();
      try {
        await client.send(
          new PutItemCommand({
            TableName: tableName,
            Item: toAttributes({
              ...deliveryKeys.monitorEvent(accountId, event.position),
              kind: 'webhook-monitor-event',
              ...event,
              [TTL_ATTRIBUTE]: expiresAfterRetention(at),
            }),
          }),
        );
      } catch (error) {
        throw storageError(error);
      }
    },

    async startDelivery(from, delivery) {
      const outcome = await transactWithRetry(
        client,
        [
          {
            role: 'delivery',
            item: {
              Put: {
                TableName: tableName,
                Item: toAttributes(deliveryAttributes(delivery)),
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          },
          {
            role: 'cursor',
            item: {
              Update: {
                TableName: tableName,
                ...moveCursor(from.endpointId, from.accountId, '#current = :id'),
                ExpressionAttributeValues: toAttributes({
                  ':id': delivery.deliveryId,
                  ':version': from.version,
                  ':next': from.version + 1,
                }),
              },
            },
          },
        ],
        retry,
      );
      return outcome.kind === 'committed';
    },

    async skipEvent(from, position) {
      const done = await update({
        ...moveCursor(from.endpointId, from.accountId, '#position = :position'),
        ExpressionAttributeNames: {
          '#version': 'version',
          '#current': 'current',
          '#position': 'position',
        },
        ExpressionAttributeValues: toAttributes({
          ':position': position,
          ':version': from.version,
          ':next': from.version + 1,
        }),
      });
      return done !== undefined;
    },

    async putDelivery(delivery) {
      try {
        await client.send(
          new PutItemCommand({
            TableName: tableName,
            Item: toAttributes(deliveryAttributes(delivery)),
          }),
        );
      } catch (error) {
        throw storageError(error);
      }
    },

    getDelivery: reads.getDelivery,

    async lease(delivery, now, until) {
      const done = await update({
        Key: marshall(deliveryKeys.delivery(delivery.endpointId, delivery.deliveryId)),
        UpdateExpression: 'SET leaseUntil = :until, #version = :next',
        ConditionExpression:
          '#version = :version AND (attribute_not_exists(leaseUntil) OR leaseUntil < :now)',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: marshall({
          ':until': until.toISOString(),
          ':now': now.toISOString(),
          ':version': delivery.version,
          ':next': delivery.version + 1,
        }),
        ReturnValues: 'ALL_NEW',
      });
      return done?.Attributes ? toDelivery(unmarshall(done.Attributes)) : undefined;
    },

    async recordAttempt(from, next) {
      const written = { ...next, version: from.version + 1 };
      const finishes = from.ordered && from.status === 'pending' && next.status !== 'pending';
      const outcome = await transactWithRetry(
        client,
        [
          {
            role: 'delivery',
            item: {
              Put: {
                TableName: tableName,
                Item: toAttributes(deliveryAttributes(written)),
                ConditionExpression: '#version = :version',
                ExpressionAttributeNames: { '#version': 'version' },
                ExpressionAttributeValues: marshall({ ':version': from.version }),
              },
            },
          },
          ...(finishes
            ? [
                {
                  role: 'cursor',
                  item: {
                    Update: {
                      TableName: tableName,
                      Key: marshall(deliveryKeys.cursor(from.endpointId, from.accountId)),
                      UpdateExpression:
                        'SET #position = :position, #version = #version + :one REMOVE #current',
                      ConditionExpression: '#current = :id',
                      ExpressionAttributeNames: {
                        '#position': 'position',
                        '#version': 'version',
                        '#current': 'current',
                      },
                      ExpressionAttributeValues: marshall({
                        ':position': from.position,
                        ':one': 1,
                        ':id': from.deliveryId,
                      }),
                    },
                  },
                },
              ]
            : []),
        ],
        retry,
      );
      return outcome.kind === 'committed';
    },

    async countAttempt(endpoint, ok, disableAfter) {
      const Key = marshall({ pk: `WEBHOOKS#${endpoint.ownerId}`, sk: `ENDPOINT#${endpoint.id}` });
      const names = { '#failures': 'consecutiveFailures', '#version': 'version' };
      if (ok) {
        await update({
          Key,
          UpdateExpression: 'SET #failures = :zero ADD #version :one',
          ConditionExpression: 'attribute_exists(pk) AND #failures > :zero',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: marshall({ ':zero': 0, ':one': 1 }),
        });
        return 0;
      }
      const counted = await update({
        Key,
        UpdateExpression: 'ADD #failures :one, #version :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: marshall({ ':one': 1 }),
        ReturnValues: 'ALL_NEW',
      });
      if (!counted?.Attributes) return 0;
      const after = toEndpoint(unmarshall(counted.Attributes));
      if (after.consecutiveFailures >= disableAfter && after.status === 'enabled') {
        await update({
          Key,
          UpdateExpression: 'SET #status = :disabled ADD #version :one',
          ConditionExpression: '#status = :enabled AND #failures >= :limit',
          ExpressionAttributeNames: { ...names, '#status': 'status' },
          ExpressionAttributeValues: marshall({
            ':disabled': 'disabled',
            ':enabled': 'enabled',
            ':limit': disableAfter,
            ':one': 1,
          }),
        });
      }
      return after.consecutiveFailures;
    },

    listDeliveries: reads.listDeliveries,
  };
}
