import { marshall } from '@aws-sdk/util-dynamodb';
import type { WebhookEndpointPort } from '../../domain/webhooks/port';
import {
  claimedFailure,
  claimItem,
  claimRecorder,
  unexpectedFailure,
} from '../idempotency/command';
import { keys } from '../table/keys';
import { getItem, getItems, queryAll } from '../table/reads';
import { retryPolicy, type StoreOptions, transactWithRetry } from '../table/transact';
import {
  countDownItem,
  countUpItem,
  ENDPOINT_SK_PREFIX,
  newEndpointItem,
  replaceEndpointItem,
  toEndpoint,
  webhookKeys,
} from './items';

type Role = 'claim' | 'count' | 'endpoint';

/** Webhook endpoints on the table for the routes (docs/contract.md §32). */
export function createWebhookEndpointStore(options: StoreOptions): WebhookEndpointPort {
  const { client, tableName } = options;
  const retry = retryPolicy(options);
  return {
    ...claimRecorder(client, tableName, retry),

    async ownedAccounts(ownerId, accountIds) {
      const unique = [...new Set(accountIds)];
      const items = await getItems(
        client,
        tableName,
        unique.map((id) => keys.account(id)),
      );
      return new Set(unique.filter((_, i) => items[i]?.ownerId === ownerId));
    },

    async createEndpoint(claim, endpoint) {
      const outcome = await transactWithRetry<Role>(
        client,
        [
          { role: 'claim', item: claimItem(tableName, claim), decisive: true },
          { role: 'count', item: countUpItem(tableName, endpoint.ownerId) },
          { role: 'endpoint', item: newEndpointItem(tableName, endpoint) },
        ],
        retry,
      );
      if (outcome.kind === 'committed') return outcome;
      const claimed = claimedFailure(outcome.failed);
      if (claimed) return claimed;
      if (outcome.failed.has('count')) return { kind: 'limit_reached' };
      throw unexpectedFailure(outcome.failed);
    },

    async listEndpoints(ownerId) {
      const items = await queryAll(client, {
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: marshall({
          ':pk': webhookKeys.endpointCount(ownerId).pk,
          ':prefix': ENDPOINT_SK_PREFIX,
        }),
        ConsistentRead: true,
      });
      return items
        .map(toEndpoint)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    },

    async getEndpoint(ownerId, endpointId) {
      const item = await getItem(client, tableName, webhookKeys.endpoint(ownerId, endpointId));
      return item ? toEndpoint(item) : undefined;
    },

    async replaceEndpoint(next, fromVersion, claim) {
      const outcome = await transactWithRetry<Role>(
        client,
        [
          ...(claim
            ? [{ role: 'claim' as const, item: claimItem(tableName, claim), decisive: true }]
            : []),
          { role: 'endpoint', item: replaceEndpointItem(tableName, next, fromVersion) },
        ],
        retry,
      );
      if (outcome.kind === 'committed') return outcome;
      const claimed = claimedFailure(outcome.failed);
      if (claimed) return claimed;
      if (outcome.failed.has('endpoint')) return { kind: 'moved' };
      throw unexpectedFailure(outcome.failed);
    },

    async deleteEndpoint(ownerId, endpointId) {
      const outcome = await transactWithRetry<Role>(
        client,
        [
          {
            role: 'endpoint',
            item: {
              Delete: {
                TableName: tableName,
                Key: marshall(webhookKeys.endpoint(ownerId, endpointId)),
                ConditionExpression: 'attribute_exists(pk)',
              },
            },
          },
          { role: 'count', item: countDownItem(tableName, ownerId) },
        ],
        retry,
      );
      if (outcome.kind === 'committed') return true;
      if (outcome.failed.has('endpoint')) return false;
      throw unexpectedFailure(outcome.failed);
    },
  };
}
