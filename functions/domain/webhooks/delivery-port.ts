import type { AttemptResult, Delivery, DeliveryCursor, DeliveryStatus } from './delivery';
import type { WebhookEndpoint } from './model';

/** The next event of an account after a position: a journal record or a monitor event. */
export interface NextEvent {
  readonly position: string;
  /** The CloudEvent's JSON as the journal topic carries it. */
  readonly body: string;
  readonly eventId: string;
  readonly eventType: string;
}

/** A page of an endpoint's deliveries, newest first. */
export interface DeliveryPage {
  readonly items: readonly Delivery[];
  readonly nextCursor: string | null;
}

/** What the delivery function and the deliveries routes keep on the table. */
export interface WebhookDeliveryPort {
  /** The endpoints of the account's owner (strongly consistent); none for an unknown account. */
  endpointsOfAccount(
    accountId: string,
  ): Promise<{ ownerId: string; endpoints: WebhookEndpoint[] } | undefined>;
  getEndpoint(ownerId: string, endpointId: string): Promise<WebhookEndpoint | undefined>;
  /** The cursor, or one made at the account's first record committed at or after `from`. */
  cursor(endpoint: WebhookEndpoint, accountId: string): Promise<DeliveryCursor>;
  /** The cursors of an endpoint (its accounts), to resume them after a re-enable. */
  cursorsOf(endpointId: string): Promise<DeliveryCursor[]>;
  /** The account's event after `position` (strongly consistent), of a type `wanted` accepts. */
  nextEvent(accountId: string, position: string): Promise<NextEvent | undefined>;
  /** Keeps a monitor event (it has no item of its own) at its position, for 30 days. */
  keepMonitorEvent(accountId: string, event: NextEvent): Promise<void>;
  /**
   * ONE transaction: the new delivery, and the cursor pointing at it — only while the cursor
   * stands at `from.version` with nothing in flight. False when it moved.
   */
  startDelivery(from: DeliveryCursor, delivery: Delivery): Promise<boolean>;
  /** Moves the cursor past an event without delivering it (a type the endpoint skips). */
  skipEvent(from: DeliveryCursor, position: string): Promise<boolean>;
  /** A delivery not bound to the cursor (a monitor event that came after its turn). */
  putDelivery(delivery: Delivery): Promise<void>;
  getDelivery(endpointId: string, deliveryId: string): Promise<Delivery | undefined>;
  /**
   * Takes the delivery for one attempt until `until` (so two workers do not send it at once):
   * the delivery as leased (its version raised), or undefined when it moved or another holds it.
   */
  lease(delivery: Delivery, now: Date, until: Date): Promise<Delivery | undefined>;
  /**
   * The attempt's outcome, conditioned on `from.version`; when it finishes an ordered delivery
   * the cursor moves to its position in the same transaction.
   */
  recordAttempt(from: Delivery, next: Delivery): Promise<boolean>;
  /**
   * Counts the attempt on the endpoint: failures in a row (reset by a success). Returns the
   * endpoint's count after it; disables it when the count reaches `disableAfter`.
   */
  countAttempt(endpoint: WebhookEndpoint, ok: boolean, disableAfter: number): Promise<number>;
  listDeliveries(
    endpointId: string,
    options: { status?: DeliveryStatus; limit: number; cursor?: string },
  ): Promise<DeliveryPage>;
}

/** One signed POST to an endpoint. */
export interface WebhookRequest {
  readonly url: URL;
  /** The checked address to connect to; undefined lets the socket resolve (local). */
  readonly address: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly timeoutMs: number;
}

/** Sends it once: no redirects followed; the status, or null with why there was none. */
export type WebhookSender = (request: WebhookRequest) => Promise<AttemptResult>;

/** What the delivery queue carries besides the journal topic's events. */
export type WebhookWake =
  | {
      readonly kind: 'wake';
      readonly ownerId: string;
      readonly endpointId: string;
      readonly accountId: string;
    }
  | {
      readonly kind: 'retry';
      readonly ownerId: string;
      readonly endpointId: string;
      readonly deliveryId: string;
      /** Asked for on the route: sent now, whatever its schedule or the endpoint's status. */
      readonly manual: boolean;
    };

/** The delivery queue: a wake or a retry, delayed up to the queue's maximum (900 s on SQS). */
export interface WebhookQueue {
  send(message: WebhookWake, delaySeconds: number): Promise<void>;
}
