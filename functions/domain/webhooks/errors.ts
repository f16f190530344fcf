import { LedgerRejection } from '../shared/errors';

/** A principal that has its 20 webhook endpoints already (docs/contract.md §32). */
export class WebhookEndpointLimitReachedError extends LedgerRejection {
  constructor(limit: number) {
    super(
      'webhook_endpoint_limit_reached',
      `A principal has at most ${limit} webhook endpoints; delete one before adding another.`,
    );
  }
}
