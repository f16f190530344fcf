import type { Mocked } from 'vitest';
import type { WebhookEndpointPort } from '../../../functions/domain/webhooks/port';
import { fakeOf, RECORDED } from './fake';

/** `WebhookEndpointPort`: no accounts, no endpoints, every write committed, unless told otherwise. */
export function fakeWebhookEndpointPort(
  overrides: Partial<WebhookEndpointPort> = {},
): Mocked<WebhookEndpointPort> {
  return fakeOf<WebhookEndpointPort>(
    {
      recordResponse: async () => RECORDED,
      findRecord: async () => undefined,
      ownedAccounts: async () => new Set(),
      createEndpoint: async () => ({ kind: 'committed' }),
      listEndpoints: async () => [],
      getEndpoint: async () => undefined,
      replaceEndpoint: async () => ({ kind: 'committed' }),
      deleteEndpoint: async () => false,
    },
    overrides,
  );
}
