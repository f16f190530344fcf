import type { SettledWrite } from '../idempotency/idempotent-command';
import type { IdempotencyClaim, ResponseRecorder } from '../idempotency/port';
import type { WebhookEndpoint } from './model';

/** What creating an endpoint reports besides committed / claimed. */
export type CreateEndpointResult = SettledWrite | { readonly kind: 'limit_reached' };

/** What replacing an endpoint reports: it moved (or went) since it was read. */
export type ReplaceEndpointResult = SettledWrite | { readonly kind: 'moved' };

/** The endpoint routes' storage (docs/contract.md §32): an owner's endpoints, by id. */
export interface WebhookEndpointPort extends ResponseRecorder {
  /** Which of `accountIds` exist and are `ownerId`'s. */
  ownedAccounts(ownerId: string, accountIds: readonly string[]): Promise<ReadonlySet<string>>;
  /** ONE transaction: the claim, the owner's endpoint count raised below the limit, the endpoint. */
  createEndpoint(claim: IdempotencyClaim, endpoint: WebhookEndpoint): Promise<CreateEndpointResult>;
  /** The owner's endpoints, strongly consistent, oldest first. */
  listEndpoints(ownerId: string): Promise<WebhookEndpoint[]>;
  getEndpoint(ownerId: string, endpointId: string): Promise<WebhookEndpoint | undefined>;
  /**
   * `next` in place of the endpoint while it still stands at `fromVersion` (`next.version` is
   * one more), with the claim in the same transaction when one is given.
   */
  replaceEndpoint(
    next: WebhookEndpoint,
    fromVersion: number,
    claim?: IdempotencyClaim,
  ): Promise<ReplaceEndpointResult>;
  /** Removes it and lowers the count; false when the owner has no such endpoint. */
  deleteEndpoint(ownerId: string, endpointId: string): Promise<boolean>;
}
