/**
 * One definition per webhook fact (docs/contract.md §32 "Webhooks"): the event types an
 * endpoint may ask for, the limits, the secrets' shape and overlap, the delivery timing. The
 * routes, the delivery function, the CDK stacks, the local stack, the CLI and the docs import
 * these.
 */
import { JOURNAL_EVENT_TYPE } from './journal';
import { MONITOR_EVENT_TYPE } from './monitors';

/** What `events` may hold (or `["*"]`, every one of them). */
export const WEBHOOK_EVENT_TYPES = [JOURNAL_EVENT_TYPE, MONITOR_EVENT_TYPE] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** `events: ["*"]`: every type, today's and tomorrow's. */
export const ALL_WEBHOOK_EVENTS = '*';

/** Endpoints per principal; the next one is `409 webhook_endpoint_limit_reached`. */
export const MAX_WEBHOOK_ENDPOINTS_PER_PRINCIPAL = 20;
/** `accountIds` of one endpoint: at most this many, each the caller's. */
export const MAX_WEBHOOK_ACCOUNT_IDS = 100;
/** `description`: at most this many characters. */
export const MAX_WEBHOOK_DESCRIPTION = 200;
/** `url`: at most this many characters. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** A signing secret: `whsec_` then the base64 of this many random bytes (Standard Webhooks). */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const WEBHOOK_SECRET_BYTES = 32;
/** Secrets that sign at once: the newest, and the one it replaced while the overlap lasts. */
export const MAX_LIVE_WEBHOOK_SECRETS = 2;
/** How long a replaced secret keeps signing after a rotation. */
export const WEBHOOK_SECRET_OVERLAP_SECONDS = 24 * 3600;

/** A delivery succeeds on a 2xx answered within this time. */
export const WEBHOOK_DELIVERY_TIMEOUT_MS = 10_000;
/** Delivery records expire (TTL) this long after their last attempt. */
export const WEBHOOK_DELIVERY_RETENTION_DAYS = 30;
/** After this many failed attempts in a row the endpoint is `disabled` (configurable). */
export const DEFAULT_WEBHOOK_DISABLE_AFTER_FAILURES = 100;

/**
 * The retry schedule (docs/webhooks.md): the n-th retry waits a full-jitter share of
 * min(maxDelay, baseDelay · 2^(n−1)), until `retryWindowSeconds` after the first attempt;
 * then the delivery is `failed` and the next event of its account goes.
 */
export interface WebhookRetrySchedule {
  readonly baseDelaySeconds: number;
  readonly maxDelaySeconds: number;
  readonly retryWindowSeconds: number;
}

/** Deployed: 24 h of retries, waits growing from 30 s up to an hour. */
export const DEPLOYED_WEBHOOK_RETRIES: WebhookRetrySchedule = {
  baseDelaySeconds: 30,
  maxDelaySeconds: 3600,
  retryWindowSeconds: 24 * 3600,
};

/** Locally: the first three retries within 30 s (1 + 2 + 4 s at most), an hour in all. */
export const LOCAL_WEBHOOK_RETRIES: WebhookRetrySchedule = {
  baseDelaySeconds: 1,
  maxDelaySeconds: 60,
  retryWindowSeconds: 3600,
};

/** The delivery queue (standard; subscribed to the journal topic) and its DLQ. */
export const WEBHOOK_QUEUE_NAME = 'webhook-deliveries';
export const WEBHOOK_DLQ_NAME = 'webhook-deliveries-dlq';

/** The local stack's key that seals secrets at rest (deployed: a KMS-protected key). */
export const LOCAL_WEBHOOK_SEALING_KEY = 'local-webhook-sealing-key-not-for-production';

/**
 * Monitor events reach the delivery queue beside their record's; an endpoint that hears them
 * delivers a record only this long after its commit, so its flips are in place first (§32).
 */
export const WEBHOOK_MONITOR_SETTLE_SECONDS = 3;
/** The longest delay the queue takes (SQS); a later attempt is woken again until it is due. */
export const WEBHOOK_MAX_WAKE_DELAY_SECONDS = 900;
/** Events one wake delivers before it hands the rest to a new message (bounded invocations). */
export const WEBHOOK_EVENTS_PER_WAKE = 50;
