import { marshall } from '@aws-sdk/util-dynamodb';
import type { WebhookDeliveryPort } from '../../domain/webhooks/delivery-port';
import { decodeCursor, encodeCursor } from '../table/cursor';
import { getItem, queryAll } from '../table/reads';
import type { StoreOptions } from '../table/transact';
import { DELIVERY_SK_PREFIX, deliveryKeys, toCursor, toDelivery } from './delivery-items';
import { queryPage } from './journal-reads';

/** What the deliveries routes read (docs/contract.md §32): one delivery, or a page of them. */
export type DeliveryReadPort = Pick<
  WebhookDeliveryPort,
  'getDelivery' | 'listDeliveries' | 'cursorsOf'
>;

export function createDeliveryReads(options: StoreOptions): DeliveryReadPort {
  const { client, tableName } = options;
  return {
    async cursorsOf(endpointId) {
      const items = await queryAll(client, {
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: marshall({ ':pk': deliveryKeys.cursor(endpointId, '').pk }),
        ConsistentRead: true,
      });
      return items.map(toCursor);
    },

    async getDelivery(endpointId, deliveryId) {
      const item = await getItem(client, tableName, deliveryKeys.delivery(endpointId, deliveryId));
      return item ? toDelivery(item) : undefined;
    },

    /** Newest first; with `status`, a page may come back short (the filter runs after Limit). */
    async listDeliveries(endpointId, { status, limit, cursor }) {
      const pk = deliveryKeys.delivery(endpointId, '').pk;
      const start = cursor ? decodeCursor(cursor, DELIVERY_SK_PREFIX) : undefined;
      const page = await queryPage(client, {
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ...(status
          ? {
              FilterExpression: '#status = :status',
              ExpressionAttributeNames: { '#status': 'status' },
            }
          : {}),
        ExpressionAttributeValues: marshall({
          ':pk': pk,
          ':prefix': DELIVERY_SK_PREFIX,
          ...(status ? { ':status': status } : {}),
        }),
        ConsistentRead: true,
        ScanIndexForward: false,
        Limit: limit,
        ...(start ? { ExclusiveStartKey: marshall({ pk, sk: start }) } : {}),
      });
      return {
        items: page.items.map(toDelivery),
        nextCursor: page.lastSk === undefined ? null : encodeCursor(page.lastSk),
      };
    },
  };
}
