import { WEBHOOK_DELIVERY_RETENTION_DAYS } from '../../contract/webhooks';
import {
  DELIVERY_STATUSES,
  type Delivery,
  type DeliveryCursor,
} from '../../domain/webhooks/delivery';
import { type ItemKey, TTL_ATTRIBUTE } from '../table/keys';

const DELIVERY_RETENTION_SECONDS = WEBHOOK_DELIVERY_RETENTION_DAYS * 86_400;

/**
 * Delivery items (docs/contract.md §32; docs/architecture.md "Webhooks"):
 * - cursor (`WEBHOOK_CURSORS#<endpointId>` / `ACCOUNT#<accountId>`): `{ position, current?,
 *   version }`, how far the endpoint's deliveries of the account went and which is in flight.
 * - delivery (`WEBHOOK_DELIVERIES#<endpointId>` / `DELIVERY#<deliveryId>`): the event's body,
 *   status, attempts, last HTTP status, next attempt, `leaseUntil`; `expiresAt` 30 days after
 *   it was last written. Ids sort by creation, so a descending Query lists newest first.
 * - monitor event (`WEBHOOK_MONITOR_EVENTS#<accountId>` / `<position>`): a monitor event kept
 *   as it arrived (it has no item of its own), for 30 days.
 */
export const DELIVERY_SK_PREFIX = 'DELIVERY#';
const CURSOR_SK_PREFIX = 'ACCOUNT#';

export const deliveryKeys = {
  cursor: (endpointId: string, accountId: string): ItemKey => ({
    pk: `WEBHOOK_CURSORS#${endpointId}`,
    sk: `${CURSOR_SK_PREFIX}${accountId}`,
  }),
  delivery: (endpointId: string, deliveryId: string): ItemKey => ({
    pk: `WEBHOOK_DELIVERIES#${endpointId}`,
    sk: `${DELIVERY_SK_PREFIX}${deliveryId}`,
  }),
  monitorEvent: (accountId: string, position: string): ItemKey => ({
    pk: `WEBHOOK_MONITOR_EVENTS#${accountId}`,
    sk: position,
  }),
};

/** Seconds since the epoch when an item written at `at` expires. */
export const expiresAfterRetention = (at: string): number =>
  Math.floor(Date.parse(at) / 1000) + DELIVERY_RETENTION_SECONDS;

export const deliveryAttributes = (d: Delivery) => ({
  ...deliveryKeys.delivery(d.endpointId, d.deliveryId),
  kind: 'webhook-delivery',
  ...d,
  [TTL_ATTRIBUTE]: expiresAfterRetention(d.lastAttemptAt ?? d.createdAt),
});

export function toDelivery(item: Readonly<Record<string, unknown>>): Delivery {
  const status = DELIVERY_STATUSES.find((s) => s === item.status);
  if (!status) throw new Error(`delivery has an unknown status: ${String(item.status)}`);
  const text = (name: string) =>
    typeof item[name] === 'string' ? { [name]: item[name] as string } : {};
  return {
    deliveryId: String(item.deliveryId),
    endpointId: String(item.endpointId),
    ownerId: String(item.ownerId),
    accountId: String(item.accountId),
    position: String(item.position),
    body: String(item.body),
    eventId: String(item.eventId),
    eventType: String(item.eventType),
    status,
    attempts: Number(item.attempts),
    lastStatus: typeof item.lastStatus === 'number' ? item.lastStatus : null,
    ...text('lastError'),
    ...text('firstAttemptAt'),
    ...text('lastAttemptAt'),
    nextAttemptAt: typeof item.nextAttemptAt === 'string' ? item.nextAttemptAt : null,
    createdAt: String(item.createdAt),
    ordered: item.ordered === true,
    version: Number(item.version),
  };
}

export function toCursor(item: Readonly<Record<string, unknown>>): DeliveryCursor {
  return {
    endpointId: String(item.endpointId),
    ownerId: String(item.ownerId),
    accountId: String(item.accountId),
    position: String(item.position),
    ...(typeof item.current === 'string' ? { current: item.current } : {}),
    version: Number(item.version),
  };
}
