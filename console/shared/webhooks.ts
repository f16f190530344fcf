/**
 * The console's Webhooks page (docs/console.md, docs/contract.md §32): its parameters and
 * shapes, beside ./api.ts (its route is CONSOLE_ROUTES.webhooks). Plain TypeScript: no Node, no DOM.
 */

/** `owner` (required), `endpoint` (one of the owner's), `cursor` (with `endpoint`), `limit`. */
export const WEBHOOKS_OWNER_PARAM = 'owner';
export const WEBHOOKS_ENDPOINT_PARAM = 'endpoint';
export const WEBHOOKS_CURSOR_PARAM = 'cursor';
export const WEBHOOKS_LIMIT_PARAM = 'limit';
/** Failed deliveries listed per endpoint and page, unless `limit` says otherwise (1–100). */
export const WEBHOOKS_DEFAULT_LIMIT = 20;
export const WEBHOOKS_MAX_LIMIT = 100;

/** An endpoint as listed: never a secret. */
export interface WebhookEndpointRow {
  readonly id: string;
  readonly url: string;
  readonly events: readonly string[];
  /** `null`: every account of the owner. */
  readonly accountIds: readonly string[] | null;
  readonly status: string;
  readonly createdAt: string;
}

/** A delivery whose status is `failed`. */
export interface FailedDeliveryRow {
  readonly id: string;
  readonly eventId: string;
  readonly eventType: string;
  readonly accountId: string;
  readonly attempts: number;
  readonly lastStatus: number | null;
  readonly lastError?: string;
  readonly lastAttemptAt: string | null;
}

/** One endpoint's failed deliveries, newest first; a page may be short (filtered after Limit). */
export interface FailedDeliveriesOf {
  readonly endpointId: string;
  readonly items: readonly FailedDeliveryRow[];
  readonly nextCursor: string | null;
}

export interface ConsoleWebhooks {
  readonly owner: string;
  readonly endpoints: readonly WebhookEndpointRow[];
  /** Per endpoint listed (or only the one asked for), its first (or `cursor`'s) page. */
  readonly failed: readonly FailedDeliveriesOf[];
}
