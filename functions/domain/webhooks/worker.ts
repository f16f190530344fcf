import { MONITOR_EVENT_TYPE } from '../../contract/monitors';
import { WEBHOOK_EVENTS_PER_WAKE, WEBHOOK_MONITOR_SETTLE_SECONDS } from '../../contract/webhooks';
import { type AttemptOptions, DeliveryAttempts } from './attempts';
import { type Delivery, type DeliveryCursor, monitorPosition, type WebhookEvent } from './delivery';
import type {
  NextEvent,
  WebhookDeliveryPort,
  WebhookQueue,
  WebhookSender,
  WebhookWake,
} from './delivery-port';
import { coversAccount, type WebhookEndpoint, wantsEvent } from './model';

export interface DeliveryWorkerOptions extends AttemptOptions {
  readonly newId: () => string;
  /** @default WEBHOOK_EVENTS_PER_WAKE */
  readonly eventsPerWake?: number;
}

/**
 * The delivery function's work (docs/contract.md §32). The queue carries the journal topic's
 * events, which only WAKE each (endpoint, account) that hears about them: what is delivered is
 * read from the table in journal order, from the cursor on, one delivery in flight per account.
 * Monitor events, which have no item of their own, are kept at their position as they arrive.
 */
export class WebhookDeliveryWorker {
  private readonly attempts: DeliveryAttempts;

  constructor(
    private readonly port: WebhookDeliveryPort,
    sender: WebhookSender,
    private readonly queue: WebhookQueue,
    private readonly options: DeliveryWorkerOptions,
  ) {
    this.attempts = new DeliveryAttempts(port, sender, queue, options);
  }

  /** A journal record or monitor event from the topic, as published (`raw`). */
  async onEvent(event: WebhookEvent, raw: string): Promise<void> {
    const accountId = event.subject;
    const found = await this.port.endpointsOfAccount(accountId);
    if (!found) return;
    const monitor = event.type === MONITOR_EVENT_TYPE ? monitorEventAt(event, raw) : undefined;
    if (monitor) await this.port.keepMonitorEvent(accountId, monitor);
    for (const endpoint of found.endpoints) {
      if (endpoint.status !== 'enabled' || !coversAccount(endpoint, accountId)) continue;
      if (monitor && wantsEvent(endpoint, MONITOR_EVENT_TYPE)) {
        await this.catchLate(endpoint, accountId, monitor);
      }
      await this.drain(endpoint, accountId);
    }
  }

  /** A wake (backoff, hand-over, re-enable) or a retry (route, or an unordered delivery). */
  async onWake(message: WebhookWake): Promise<void> {
    const endpoint = await this.port.getEndpoint(message.ownerId, message.endpointId);
    if (!endpoint) return;
    if (message.kind === 'wake') {
      if (endpoint.status === 'enabled') await this.drain(endpoint, message.accountId);
      return;
    }
    const delivery = await this.port.getDelivery(endpoint.id, message.deliveryId);
    if (!delivery || (endpoint.status !== 'enabled' && !message.manual)) return;
    const outcome = await this.attempts.attempt(endpoint, delivery, message.manual);
    // A manual retry may finish the delivery the account waits for: the rest may go.
    if (outcome === 'finished' && delivery.ordered && endpoint.status === 'enabled') {
      await this.drain(endpoint, delivery.accountId);
    }
  }

  /** Delivers the account's events in order, from the cursor, until one has to wait. */
  private async drain(endpoint: WebhookEndpoint, accountId: string): Promise<void> {
    const limit = this.options.eventsPerWake ?? WEBHOOK_EVENTS_PER_WAKE;
    for (let steps = 0; steps < limit; steps++) {
      const cursor = await this.port.cursor(endpoint, accountId);
      if (cursor.current !== undefined) {
        const delivery = await this.port.getDelivery(endpoint.id, cursor.current);
        if (!delivery) throw new Error(`cursor of ${endpoint.id} names a missing delivery`);
        if ((await this.attempts.attempt(endpoint, delivery)) !== 'finished') return;
        continue;
      }
      const next = await this.port.nextEvent(accountId, cursor.position);
      if (!next) return;
      if (!wantsEvent(endpoint, next.eventType)) {
        await this.port.skipEvent(cursor, next.position);
        continue;
      }
      const wait = this.settleMs(endpoint, next);
      if (wait > 0) return this.wake(cursor, wait);
      await this.port.startDelivery(cursor, this.newDelivery(cursor, next, true));
    }
    await this.wake(await this.port.cursor(endpoint, accountId), 0);
  }

  /**
   * A record goes once its monitor events had the time to arrive (they travel beside it), if
   * the endpoint hears monitor events.
   */
  private settleMs(endpoint: WebhookEndpoint, next: NextEvent): number {
    if (next.eventType === MONITOR_EVENT_TYPE || !wantsEvent(endpoint, MONITOR_EVENT_TYPE))
      return 0;
    const time = Date.parse(String((JSON.parse(next.body) as { time?: unknown }).time));
    if (!Number.isFinite(time)) return 0;
    return time + WEBHOOK_MONITOR_SETTLE_SECONDS * 1000 - this.options.clock().getTime();
  }

  /** A monitor event that arrived after its account's cursor passed it: delivered on its own. */
  private async catchLate(endpoint: WebhookEndpoint, accountId: string, event: NextEvent) {
    const cursor = await this.port.cursor(endpoint, accountId);
    if (cursor.position < event.position) return;
    const delivery = this.newDelivery(cursor, event, false);
    await this.port.putDelivery(delivery);
    await this.attempts.attempt(endpoint, delivery);
  }

  private wake(cursor: DeliveryCursor, ms: number): Promise<void> {
    const { ownerId, endpointId, accountId } = cursor;
    const seconds = Math.max(0, Math.ceil(ms / 1000));
    return this.queue.send({ kind: 'wake', ownerId, endpointId, accountId }, seconds);
  }

  private newDelivery(cursor: DeliveryCursor, event: NextEvent, ordered: boolean): Delivery {
    const now = this.options.clock();
    return {
      deliveryId: deliveryIdAt(now, this.options.newId()),
      endpointId: cursor.endpointId,
      ownerId: cursor.ownerId,
      accountId: cursor.accountId,
      position: event.position,
      body: event.body,
      eventId: event.eventId,
      eventType: event.eventType,
      status: 'pending',
      attempts: 0,
      lastStatus: null,
      nextAttemptAt: now.toISOString(),
      createdAt: now.toISOString(),
      ordered,
      version: 0,
    };
  }
}

/** Delivery ids sort by creation (the list is newest first): base-36 milliseconds, then random. */
export const deliveryIdAt = (now: Date, unique: string): string =>
  `${now.getTime().toString(36).padStart(9, '0')}${unique.replace(/-/g, '').slice(0, 15)}`;

/** Where a monitor event sits: right after its record (docs/contract.md §32). */
function monitorEventAt(event: WebhookEvent, raw: string): NextEvent | undefined {
  const data = event.data as { monitorId?: unknown; sequence?: unknown } | undefined;
  if (typeof data?.monitorId !== 'string' || typeof data.sequence !== 'number') return undefined;
  return {
    position: monitorPosition(data.sequence, data.monitorId),
    body: raw,
    eventId: event.id,
    eventType: event.type,
  };
}
