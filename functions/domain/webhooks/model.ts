import { ALL_WEBHOOK_EVENTS, type WebhookEventType } from '../../contract/webhooks';

/**
 * Webhook endpoints (docs/contract.md §32): a tenant's HTTPS URL that hears, signed, about
 * the journal records and monitor events of the principal's accounts it subscribes to.
 */
export type WebhookStatus = 'enabled' | 'disabled';

/** `["*"]`, or a non-empty subset of the event types. */
export type WebhookEvents = readonly (typeof ALL_WEBHOOK_EVENTS)[] | readonly WebhookEventType[];

/** A signing secret as stored: sealed (never in clear at rest), and until when it signs. */
export interface StoredSecret {
  readonly sealed: string;
  readonly createdAt: string;
  /** Absent: the current secret. Set on the one a rotation replaced. */
  readonly expiresAt?: string;
}

/** An endpoint as stored. */
export interface WebhookEndpoint {
  readonly id: string;
  readonly ownerId: string;
  readonly url: string;
  readonly events: WebhookEvents;
  /** `null`: every account of the owner. */
  readonly accountIds: readonly string[] | null;
  readonly description?: string;
  readonly status: WebhookStatus;
  /** The current secret first; at most MAX_LIVE_WEBHOOK_SECRETS. */
  readonly secrets: readonly StoredSecret[];
  /** Failed attempts in a row; any success resets it, re-enabling too. */
  readonly consecutiveFailures: number;
  /** Every write raises it: the optimistic guard of updates. */
  readonly version: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** The wire shape: never a secret (only creation and rotation answer one). */
export interface WebhookEndpointView {
  readonly id: string;
  readonly url: string;
  readonly events: readonly string[];
  readonly accountIds: readonly string[] | null;
  readonly description?: string;
  readonly status: WebhookStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export const endpointView = (e: WebhookEndpoint): WebhookEndpointView => ({
  id: e.id,
  url: e.url,
  events: [...e.events],
  accountIds: e.accountIds === null ? null : [...e.accountIds],
  ...(e.description === undefined ? {} : { description: e.description }),
  status: e.status,
  createdAt: e.createdAt,
  updatedAt: e.updatedAt,
});

/** Whether the endpoint asks for events of `type`. */
export const wantsEvent = (e: Pick<WebhookEndpoint, 'events'>, type: string): boolean =>
  e.events.some((wanted) => wanted === ALL_WEBHOOK_EVENTS || wanted === type);

/** Whether the endpoint hears about `accountId` (one of its owner's). */
export const coversAccount = (e: Pick<WebhookEndpoint, 'accountIds'>, accountId: string) =>
  e.accountIds === null || e.accountIds.includes(accountId);

/** The secrets that sign at `now`: the current one, and a replaced one until it expires. */
export const liveSecrets = (e: Pick<WebhookEndpoint, 'secrets'>, now: Date) =>
  e.secrets.filter((s) => s.expiresAt === undefined || Date.parse(s.expiresAt) > now.getTime());

/** What PATCH may change. */
export interface EndpointChanges {
  readonly status?: WebhookStatus;
  readonly events?: WebhookEvents;
  readonly description?: string | null;
}
