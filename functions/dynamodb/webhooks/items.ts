import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { MAX_WEBHOOK_ENDPOINTS_PER_PRINCIPAL, WEBHOOK_EVENT_TYPES } from '../../contract/webhooks';
import type {
  StoredSecret,
  WebhookEndpoint,
  WebhookEvents,
  WebhookStatus,
} from '../../domain/webhooks/model';
import { putNew, toAttributes } from '../table/attributes';
import { counterDownItem, counterUpItem } from '../table/counter';
import type { ItemKey } from '../table/keys';

/**
 * Webhook items (docs/contract.md §32; docs/architecture.md "Webhooks"):
 * - endpoint (`WEBHOOKS#<ownerId>` / `ENDPOINT#<id>`): `{ kind: 'webhook-endpoint', id, ownerId,
 *   url, events, accountIds (null = all), description?, status, secrets: [{ sealed, createdAt,
 *   expiresAt? }], consecutiveFailures, version, createdAt, updatedAt }` — in its owner's
 *   partition, so one Query lists them and a key read is ownership.
 * - count (`WEBHOOKS#<ownerId>` / `COUNT`): `{ count }`, the limit's guard.
 */
export const ENDPOINT_SK_PREFIX = 'ENDPOINT#';
const ENDPOINT_KIND = 'webhook-endpoint';
const COUNT_KIND = 'webhook-endpoint-count';

export const webhookKeys = {
  endpoint: (ownerId: string, endpointId: string): ItemKey => ({
    pk: `WEBHOOKS#${ownerId}`,
    sk: `${ENDPOINT_SK_PREFIX}${endpointId}`,
  }),
  endpointCount: (ownerId: string): ItemKey => ({ pk: `WEBHOOKS#${ownerId}`, sk: 'COUNT' }),
};

const endpointAttributes = (e: WebhookEndpoint) => ({
  ...webhookKeys.endpoint(e.ownerId, e.id),
  kind: ENDPOINT_KIND,
  ...e,
});

export const newEndpointItem = (tableName: string, e: WebhookEndpoint): TransactWriteItem =>
  putNew(tableName, endpointAttributes(e));

/** The endpoint replaced, only while it still stands at `fromVersion`. */
export const replaceEndpointItem = (
  tableName: string,
  e: WebhookEndpoint,
  fromVersion: number,
): TransactWriteItem => ({
  Put: {
    TableName: tableName,
    Item: toAttributes(endpointAttributes(e)),
    ConditionExpression: 'attribute_exists(pk) AND #version = :from',
    ExpressionAttributeNames: { '#version': 'version' },
    ExpressionAttributeValues: toAttributes({ ':from': fromVersion }),
  },
});

/** The owner's count up by one, only below the limit (docs/contract.md §32). */
export const countUpItem = (tableName: string, ownerId: string): TransactWriteItem =>
  counterUpItem(
    tableName,
    webhookKeys.endpointCount(ownerId),
    MAX_WEBHOOK_ENDPOINTS_PER_PRINCIPAL,
    COUNT_KIND,
  );

export const countDownItem = (tableName: string, ownerId: string): TransactWriteItem =>
  counterDownItem(tableName, webhookKeys.endpointCount(ownerId));

const STATUSES: readonly WebhookStatus[] = ['enabled', 'disabled'];

function toEvents(value: unknown): WebhookEvents {
  const list = Array.isArray(value) ? value.map(String) : [];
  if (list.length === 1 && list[0] === '*') return ['*'];
  return WEBHOOK_EVENT_TYPES.filter((type) => list.includes(type));
}

function toSecret(value: unknown): StoredSecret {
  const s = value as Record<string, unknown>;
  return {
    sealed: String(s.sealed),
    createdAt: String(s.createdAt),
    ...(typeof s.expiresAt === 'string' ? { expiresAt: s.expiresAt } : {}),
  };
}

export function toEndpoint(item: Readonly<Record<string, unknown>>): WebhookEndpoint {
  const status = STATUSES.find((s) => s === item.status);
  if (!status) throw new Error(`webhook endpoint has an unknown status: ${String(item.status)}`);
  return {
    id: String(item.id),
    ownerId: String(item.ownerId),
    url: String(item.url),
    events: toEvents(item.events),
    accountIds: Array.isArray(item.accountIds) ? item.accountIds.map(String) : null,
    ...(typeof item.description === 'string' ? { description: item.description } : {}),
    status,
    secrets: Array.isArray(item.secrets) ? item.secrets.map(toSecret) : [],
    consecutiveFailures: Number(item.consecutiveFailures ?? 0),
    version: Number(item.version),
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
  };
}
