import type { WebhookDeliveryService } from '../../domain/webhooks/deliveries';
import type { WebhookEndpointService } from '../../domain/webhooks/service';
import type { RouteHandlers } from '../router';
import type { WEBHOOK_DELIVERY_ROUTES, WEBHOOK_ENDPOINT_ROUTES } from './spec';

/** Webhook endpoints (docs/contract.md §32): the spec parsed the input. */
export function webhookEndpointHandlers(
  service: WebhookEndpointService,
  clock: () => Date,
): RouteHandlers<typeof WEBHOOK_ENDPOINT_ROUTES> {
  return {
    createWebhookEndpoint: ({ command }) =>
      service.createEndpoint(command.ctx, command.input, command.body),
    listWebhookEndpoints: ({ principal }) => service.listEndpoints(principal),
    getWebhookEndpoint: ({ principal, params }) =>
      service.getEndpoint(principal, params.endpointId),
    updateWebhookEndpoint: ({ principal, params, body }) =>
      service.updateEndpoint(principal, params.endpointId, body, clock()),
    rotateWebhookSecret: ({ params, command }) =>
      service.rotateSecret(command.ctx, params.endpointId, command.body),
    deleteWebhookEndpoint: ({ principal, params }) =>
      service.deleteEndpoint(principal, params.endpointId),
  };
}

/** An endpoint's deliveries (docs/contract.md §32). */
export function webhookDeliveryHandlers(
  service: WebhookDeliveryService,
): RouteHandlers<typeof WEBHOOK_DELIVERY_ROUTES> {
  return {
    listWebhookDeliveries: ({ principal, params, query }) =>
      service.listDeliveries(principal, params.endpointId, query),
    retryWebhookDelivery: ({ principal, params }) =>
      service.retryDelivery(principal, params.endpointId, params.deliveryId),
  };
}
