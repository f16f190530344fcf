import { NotFoundError } from '../shared/errors';
import type { Delivery, DeliveryStatus } from './delivery';
import type { WebhookDeliveryPort, WebhookQueue } from './delivery-port';
import type { WebhookEndpoint } from './model';
import type { WebhookEndpointService } from './service';

/** A delivery on the wire (docs/contract.md §32): never its body, never a secret. */
export interface DeliveryView {
  readonly id: string;
  readonly eventId: string;
  readonly eventType: string;
  readonly accountId: string;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  readonly lastStatus: number | null;
  readonly lastError?: string;
  readonly lastAttemptAt: string | null;
  readonly nextAttemptAt: string | null;
  readonly createdAt: string;
}

export const deliveryView = (d: Delivery): DeliveryView => ({
  id: d.deliveryId,
  eventId: d.eventId,
  eventType: d.eventType,
  accountId: d.accountId,
  status: d.status,
  attempts: d.attempts,
  lastStatus: d.lastStatus,
  ...(d.lastError === undefined ? {} : { lastError: d.lastError }),
  lastAttemptAt: d.lastAttemptAt ?? null,
  nextAttemptAt: d.nextAttemptAt,
  createdAt: d.createdAt,
});

/** What the routes read of deliveries. */
export type DeliveryReads = Pick<
  WebhookDeliveryPort,
  'getDelivery' | 'listDeliveries' | 'cursorsOf'
>;

/** Wakes every account of an endpoint enabled again: each resumes where it stopped (§32). */
export function resumeDeliveries(reads: DeliveryReads, queue: WebhookQueue) {
  return async (endpoint: WebhookEndpoint): Promise<void> => {
    for (const { ownerId, accountId } of await reads.cursorsOf(endpoint.id)) {
      await queue.send({ kind: 'wake', ownerId, endpointId: endpoint.id, accountId }, 0);
    }
  };
}

export interface DeliveryQuery {
  readonly status?: DeliveryStatus;
  readonly limit: number;
  readonly cursor?: string;
}

/** The deliveries routes: an endpoint's deliveries, and one sent again now (owner only). */
export class WebhookDeliveryService {
  constructor(
    private readonly endpoints: WebhookEndpointService,
    private readonly deliveries: DeliveryReads,
    private readonly queue: WebhookQueue,
  ) {}

  async listDeliveries(principal: string, endpointId: string, query: DeliveryQuery) {
    await this.endpoints.owned(principal, endpointId);
    const page = await this.deliveries.listDeliveries(endpointId, query);
    return { items: page.items.map(deliveryView), nextCursor: page.nextCursor };
  }

  /**
   * Queues one attempt now, out of order and whatever the endpoint's status or the delivery's
   * schedule (docs/contract.md §32); `202` with the delivery as it stands.
   */
  async retryDelivery(principal: string, endpointId: string, deliveryId: string) {
    const endpoint = await this.endpoints.owned(principal, endpointId);
    const delivery = await this.deliveries.getDelivery(endpoint.id, deliveryId);
    if (!delivery) throw new NotFoundError('Delivery not found.');
    await this.queue.send(
      { kind: 'retry', ownerId: endpoint.ownerId, endpointId, deliveryId, manual: true },
      0,
    );
    return deliveryView(delivery);
  }
}
