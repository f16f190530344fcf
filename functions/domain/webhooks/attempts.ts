import {
  WEBHOOK_DELIVERY_TIMEOUT_MS,
  WEBHOOK_MAX_WAKE_DELAY_SECONDS,
  type WebhookRetrySchedule,
} from '../../contract/webhooks';
import { ValidationError } from '../shared/errors';
import { METRICS, type MetricsPort, noMetrics } from '../shared/metrics';
import { type AttemptResult, afterAttempt, type Delivery, succeeded } from './delivery';
import type {
  WebhookDeliveryPort,
  WebhookQueue,
  WebhookSender,
  WebhookWake,
} from './delivery-port';
import { liveSecrets, type WebhookEndpoint } from './model';
import type { SecretSealer } from './secrets';
import { signedHeaders } from './signing';
import { checkWebhookUrl, type UrlPolicy } from './url-policy';

export interface AttemptOptions {
  readonly retries: WebhookRetrySchedule;
  /** Failed attempts in a row that disable an endpoint (docs/contract.md §32). */
  readonly disableAfterFailures: number;
  readonly urls: UrlPolicy;
  readonly sealer: SecretSealer;
  readonly clock: () => Date;
  readonly random?: () => number;
  readonly metrics?: MetricsPort;
}

/** How an attempt ended for the caller: the delivery is done, waits for later, or was not ours. */
export type AttemptOutcome = 'finished' | 'waiting' | 'busy';

/** A lease outlives the attempt it covers: the send's timeout and a margin for the writes. */
const LEASE_MS = WEBHOOK_DELIVERY_TIMEOUT_MS + 20_000;

/**
 * One attempt of one delivery (docs/contract.md §32): re-checks the URL (deployed: resolves
 * the host again and connects to the address it checked), signs with every live secret, sends
 * once, records the outcome and counts it on the endpoint; a delivery still pending is woken
 * again when its next attempt is due.
 */
export class DeliveryAttempts {
  constructor(
    private readonly port: WebhookDeliveryPort,
    private readonly sender: WebhookSender,
    private readonly queue: WebhookQueue,
    private readonly options: AttemptOptions,
  ) {}

  /** `manual`: sent now, whatever its schedule (the retry route). */
  async attempt(endpoint: WebhookEndpoint, delivery: Delivery, manual = false) {
    const now = this.options.clock();
    const due = delivery.nextAttemptAt === null || Date.parse(delivery.nextAttemptAt) <= +now;
    if (!manual && delivery.status !== 'pending') return 'finished';
    if (!manual && !due) {
      await this.wakeAt(delivery, Date.parse(delivery.nextAttemptAt ?? '') - +now);
      return 'waiting';
    }
    const leased = await this.port.lease(delivery, now, new Date(+now + LEASE_MS));
    if (!leased) return 'busy';
    const result = await this.send(endpoint, leased, now);
    const { retries, random } = this.options;
    const next = afterAttempt(leased, result, this.options.clock(), retries, random);
    if (!(await this.port.recordAttempt(leased, next))) return 'busy';
    await this.port.countAttempt(endpoint, succeeded(result), this.options.disableAfterFailures);
    if (next.status !== 'pending') return 'finished';
    await this.wakeAt(next, Date.parse(next.nextAttemptAt ?? '') - +this.options.clock());
    return 'waiting';
  }

  private get disableAfter() {
    return this.options.disableAfterFailures;
  }

  private count(failuresInARow: number, next: Delivery) {
    const metrics = this.options.metrics ?? noMetrics;
    if (next.status === 'succeeded') return metrics.count(METRICS.webhookDelivered);
    metrics.count(METRICS.webhookAttemptFailed);
    if (next.status === 'failed') metrics.count(METRICS.webhookDeliveryFailed);
    if (failuresInARow === this.disableAfter) metrics.count(METRICS.webhookEndpointDisabled);
  }

  private async send(endpoint: WebhookEndpoint, delivery: Delivery, now: Date) {
    let checked: Awaited<ReturnType<typeof checkWebhookUrl>>;
    try {
      checked = await checkWebhookUrl(endpoint.url, this.options.urls);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return { status: null, error: `address refused: ${error.detail}` } as AttemptResult;
    }
    const { sealer } = this.options;
    const secrets = await Promise.all(
      liveSecrets(endpoint, now).map((secret) => sealer.open(secret.sealed)),
    );
    const { body, eventId } = delivery;
    return this.sender({
      url: checked.url,
      address: checked.address,
      headers: signedHeaders({ eventId, body, secrets, now }),
      body,
      timeoutMs: WEBHOOK_DELIVERY_TIMEOUT_MS,
    });
  }

  /** Wakes the delivery's account (or the delivery alone, if unordered) after `ms`. */
  private wakeAt(delivery: Delivery, ms: number): Promise<void> {
    const { ownerId, endpointId, accountId, deliveryId } = delivery;
    const message: WebhookWake = delivery.ordered
      ? { kind: 'wake', ownerId, endpointId, accountId }
      : { kind: 'retry', ownerId, endpointId, deliveryId, manual: false };
    const seconds = Math.min(WEBHOOK_MAX_WAKE_DELAY_SECONDS, Math.max(0, Math.ceil(ms / 1000)));
    return this.queue.send(message, seconds);
  }
}
