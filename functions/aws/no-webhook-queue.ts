import { UnavailableError } from '../domain/shared/errors';
import type { WebhookQueue } from '../domain/webhooks/delivery-port';

/** Where no delivery queue is configured (tests of other features): every send is `503`. */
export const noWebhookQueue: WebhookQueue = {
  async send() {
    throw new UnavailableError(new Error('no webhook delivery queue is configured'));
  },
};
