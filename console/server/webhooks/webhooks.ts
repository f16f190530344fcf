import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ValidationError } from '../../../functions/domain/shared/errors';
import type { Delivery } from '../../../functions/domain/webhooks/delivery';
import type { WebhookEndpoint } from '../../../functions/domain/webhooks/model';
import type { WebhookEndpointPort } from '../../../functions/domain/webhooks/port';
import {
  createDeliveryReads,
  type DeliveryReadPort,
} from '../../../functions/dynamodb/webhooks/delivery-reads';
import { createWebhookEndpointStore } from '../../../functions/dynamodb/webhooks/store';
import {
  type ConsoleWebhooks,
  type FailedDeliveryRow,
  WEBHOOKS_CURSOR_PARAM,
  WEBHOOKS_DEFAULT_LIMIT,
  WEBHOOKS_ENDPOINT_PARAM,
  WEBHOOKS_LIMIT_PARAM,
  WEBHOOKS_MAX_LIMIT,
  WEBHOOKS_OWNER_PARAM,
  type WebhookEndpointRow,
} from '../../shared/webhooks';
import type { ActionAnswer } from '../http/actions';

/** Characters of an owner (principal) the page accepts. */
const MAX_OWNER = 200;

/** What the page reads: the webhooks stores' own listings (functions/dynamodb/webhooks). */
export interface WebhookReads {
  readonly listEndpoints: WebhookEndpointPort['listEndpoints'];
  readonly listDeliveries: DeliveryReadPort['listDeliveries'];
}

export interface ConsoleWebhooksReader {
  /** The page's read: a 200 with the owner's endpoints and failed deliveries, or a 400/404. */
  list(params: URLSearchParams): Promise<ActionAnswer>;
}

/** The Webhooks page (docs/console.md) on the table's webhooks stores, across owners. */
export function createConsoleWebhooks(options: {
  client: DynamoDBClient;
  tableName: string;
}): ConsoleWebhooksReader {
  const endpoints = createWebhookEndpointStore(options);
  const deliveries = createDeliveryReads(options);
  return consoleWebhooksOver({
    listEndpoints: (ownerId) => endpoints.listEndpoints(ownerId),
    listDeliveries: (endpointId, query) => deliveries.listDeliveries(endpointId, query),
  });
}

export function consoleWebhooksOver(reads: WebhookReads): ConsoleWebhooksReader {
  return {
    async list(params) {
      const query = parseQuery(params);
      if ('error' in query) return { status: 400, body: { error: query.error } };
      const owned = await reads.listEndpoints(query.owner);
      const shown = query.endpoint ? owned.filter((e) => e.id === query.endpoint) : owned;
      if (query.endpoint && shown.length === 0) {
        return { status: 404, body: { error: `${query.owner} has no endpoint ${query.endpoint}` } };
      }
      try {
        const failed = [];
        for (const endpoint of shown) {
          const page = await reads.listDeliveries(endpoint.id, {
            status: 'failed',
            limit: query.limit,
            ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
          });
          failed.push({ endpointId: endpoint.id, ...page, items: page.items.map(failedRow) });
        }
        const body: ConsoleWebhooks = { owner: query.owner, endpoints: owned.map(row), failed };
        return { status: 200, body };
      } catch (error) {
        if (error instanceof ValidationError) {
          return { status: 400, body: { error: `${WEBHOOKS_CURSOR_PARAM}: ${error.detail}` } };
        }
        throw error;
      }
    },
  };
}

interface ParsedQuery {
  readonly owner: string;
  readonly endpoint?: string;
  readonly cursor?: string;
  readonly limit: number;
}

const KNOWN = [
  WEBHOOKS_OWNER_PARAM,
  WEBHOOKS_ENDPOINT_PARAM,
  WEBHOOKS_CURSOR_PARAM,
  WEBHOOKS_LIMIT_PARAM,
];

/** The page's query; `{ error }` says what is wrong. */
function parseQuery(params: URLSearchParams): ParsedQuery | { error: string } {
  const raw: Record<string, string> = {};
  for (const [name, value] of params) {
    if (!KNOWN.includes(name)) return { error: `unknown parameter ${name}` };
    if (name in raw) return { error: `the parameter ${name} is given more than once` };
    raw[name] = value;
  }
  const owner = (raw[WEBHOOKS_OWNER_PARAM] ?? '').trim();
  if (!owner || owner.length > MAX_OWNER) {
    return {
      error: `give the owner (principal) whose webhooks to list, 1–${MAX_OWNER} characters`,
    };
  }
  const endpoint = raw[WEBHOOKS_ENDPOINT_PARAM]?.trim() || undefined;
  const cursor = raw[WEBHOOKS_CURSOR_PARAM] || undefined;
  if (cursor !== undefined && endpoint === undefined) {
    return {
      error: `${WEBHOOKS_CURSOR_PARAM} pages one endpoint: give ${WEBHOOKS_ENDPOINT_PARAM} too`,
    };
  }
  const limitText = raw[WEBHOOKS_LIMIT_PARAM] ?? String(WEBHOOKS_DEFAULT_LIMIT);
  const limit = Number(limitText);
  if (!/^\d+$/.test(limitText) || limit < 1 || limit > WEBHOOKS_MAX_LIMIT) {
    return { error: `${WEBHOOKS_LIMIT_PARAM} is a whole number 1–${WEBHOOKS_MAX_LIMIT}` };
  }
  return {
    owner,
    limit,
    ...(endpoint === undefined ? {} : { endpoint }),
    ...(cursor === undefined ? {} : { cursor }),
  };
}

const row = (e: WebhookEndpoint): WebhookEndpointRow => ({
  id: e.id,
  url: e.url,
  events: [...e.events],
  accountIds: e.accountIds === null ? null : [...e.accountIds],
  status: e.status,
  createdAt: e.createdAt,
});

const failedRow = (d: Delivery): FailedDeliveryRow => ({
  id: d.deliveryId,
  eventId: d.eventId,
  eventType: d.eventType,
  accountId: d.accountId,
  attempts: d.attempts,
  lastStatus: d.lastStatus,
  ...(d.lastError === undefined ? {} : { lastError: d.lastError }),
  lastAttemptAt: d.lastAttemptAt ?? null,
});
