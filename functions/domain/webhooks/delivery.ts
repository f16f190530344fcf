import { padSequence } from '../../contract/journal';
import type { WebhookRetrySchedule } from '../../contract/webhooks';

/**
 * Deliveries (docs/contract.md §32): one per (endpoint, event), attempted until a 2xx, retried
 * with backoff for the schedule's window, then `failed`. Per (endpoint, account) a cursor holds
 * the position of the last event it finished (delivered or failed) and the delivery in flight:
 * the next event of the account waits until that one is finished.
 */
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** The outbound event, as the journal topic carries it: what is signed and sent. */
export interface WebhookEvent {
  readonly id: string;
  readonly type: string;
  readonly subject: string;
  readonly sequence: string;
  readonly [field: string]: unknown;
}

export interface Delivery {
  readonly deliveryId: string;
  readonly endpointId: string;
  readonly ownerId: string;
  readonly accountId: string;
  /** Where the event sits in the account's order (see {@link journalPosition}). */
  readonly position: string;
  /** The event's JSON, byte for byte what every attempt sends. */
  readonly body: string;
  readonly eventId: string;
  readonly eventType: string;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  /** The HTTP status of the last attempt; null when it got none (timeout, refused address). */
  readonly lastStatus: number | null;
  readonly lastError?: string;
  readonly firstAttemptAt?: string;
  readonly lastAttemptAt?: string;
  /** When the next automatic attempt is due; null when none is (finished). */
  readonly nextAttemptAt: string | null;
  readonly createdAt: string;
  /** Whether finishing it moves its account's cursor (false: a late monitor event). */
  readonly ordered: boolean;
  readonly version: number;
}

/** Per (endpoint, account): how far deliveries went, and the one that holds the next back. */
export interface DeliveryCursor {
  readonly endpointId: string;
  readonly ownerId: string;
  readonly accountId: string;
  /** The position of the last event finished; events after it go, in order. */
  readonly position: string;
  readonly current?: string;
  readonly version: number;
}

/**
 * Positions order an account's events as text: a journal record `<sequence, 16 digits>#`, then
 * its monitor events `<sequence>#<monitorId>` (right after their record), then the next record.
 */
export const journalPosition = (sequence: number): string => `${padSequence(sequence)}#`;
export const monitorPosition = (sequence: number, monitorId: string): string =>
  `${padSequence(sequence)}#${monitorId}`;
export const sequenceOf = (position: string): number => Number(position.slice(0, 16));

/** What one attempt got back. */
export interface AttemptResult {
  readonly status: number | null;
  readonly error?: string;
}

export const succeeded = (result: AttemptResult): boolean =>
  result.status !== null && result.status >= 200 && result.status < 300;

/**
 * The wait before retry n (n ≥ 1): "equal jitter", half of min(max, base · 2^(n−1)) plus a
 * random share of the other half, so waits grow and concurrent failures spread out.
 */
export function retryDelaySeconds(
  retry: number,
  schedule: WebhookRetrySchedule,
  random: () => number = Math.random,
): number {
  const cap = Math.min(schedule.maxDelaySeconds, schedule.baseDelaySeconds * 2 ** (retry - 1));
  return cap / 2 + random() * (cap / 2);
}

/** The delivery after an attempt at `now`: finished, or pending with its next attempt. */
export function afterAttempt(
  delivery: Delivery,
  result: AttemptResult,
  now: Date,
  schedule: WebhookRetrySchedule,
  random: () => number = Math.random,
): Delivery {
  const at = now.toISOString();
  const attempts = delivery.attempts + 1;
  const firstAttemptAt = delivery.firstAttemptAt ?? at;
  const { lastError: _previous, ...rest } = delivery;
  const base = {
    ...rest,
    attempts,
    lastStatus: result.status,
    ...(result.error === undefined ? {} : { lastError: result.error }),
    firstAttemptAt,
    lastAttemptAt: at,
  };
  if (succeeded(result)) return { ...base, status: 'succeeded', nextAttemptAt: null };
  const next = now.getTime() + retryDelaySeconds(attempts, schedule, random) * 1000;
  const deadline = Date.parse(firstAttemptAt) + schedule.retryWindowSeconds * 1000;
  if (delivery.status !== 'pending' || next > deadline) {
    return { ...base, status: 'failed', nextAttemptAt: null };
  }
  return { ...base, status: 'pending', nextAttemptAt: new Date(next).toISOString() };
}
