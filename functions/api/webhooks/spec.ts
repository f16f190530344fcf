import * as z from 'zod';
import { OPERATION_IDS } from '../../domain/idempotency/operations';
import { lazySchema } from '../../schemas/lazy';
import {
  CreatedWebhookEndpoint,
  CreateWebhookEndpointBody,
  DeliveryPath,
  DeliveryQuery,
  RotatedWebhookSecret,
  UpdateWebhookEndpointBody,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointPath,
} from '../../schemas/webhooks/endpoints';
import { named, type RouteDocs, type RouteTable } from '../spec';

const ENDPOINT = named('WebhookEndpoint', WebhookEndpoint);

/** Webhook endpoints (docs/contract.md §32): the owner's only; another's is `404`. */
export const WEBHOOK_ENDPOINT_ROUTES = {
  createWebhookEndpoint: {
    method: 'POST',
    path: '/v1/webhook-endpoints',
    idempotency: OPERATION_IDS.createWebhookEndpoint,
    tag: 'webhooks',
    body: named('CreateWebhookEndpoint', CreateWebhookEndpointBody),
    response: {
      status: 201,
      body: named('CreatedWebhookEndpoint', CreatedWebhookEndpoint),
    },
    problems: ['webhook_endpoint_limit_reached'],
  },
  listWebhookEndpoints: {
    method: 'GET',
    path: '/v1/webhook-endpoints',
    tag: 'webhooks',
    response: {
      status: 200,
      body: named('WebhookEndpointList', WebhookEndpointList),
    },
  },
  getWebhookEndpoint: {
    method: 'GET',
    path: '/v1/webhook-endpoints/{endpointId}',
    tag: 'webhooks',
    params: WebhookEndpointPath,
    response: { status: 200, body: ENDPOINT },
  },
  updateWebhookEndpoint: {
    method: 'PATCH',
    path: '/v1/webhook-endpoints/{endpointId}',
    tag: 'webhooks',
    params: WebhookEndpointPath,
    body: named('UpdateWebhookEndpoint', UpdateWebhookEndpointBody),
    response: { status: 200, body: ENDPOINT },
    problems: ['payload_too_large', 'unsupported_media_type'],
  },
  rotateWebhookSecret: {
    method: 'POST',
    path: '/v1/webhook-endpoints/{endpointId}/secret-rotations',
    idempotency: OPERATION_IDS.rotateWebhookSecret,
    tag: 'webhooks',
    params: WebhookEndpointPath,
    body: named(
      'RotateWebhookSecret',
      lazySchema(() => z.strictObject({})),
    ),
    response: {
      status: 201,
      body: named('RotatedWebhookSecret', RotatedWebhookSecret),
    },
  },
  deleteWebhookEndpoint: {
    method: 'DELETE',
    path: '/v1/webhook-endpoints/{endpointId}',
    tag: 'webhooks',
    params: WebhookEndpointPath,
    response: { status: 204 },
  },
} as const satisfies RouteTable;

/** What the OpenAPI document says of each route of WEBHOOK_ENDPOINT_ROUTES (a function, so that nothing of it is evaluated, or bundled, where only the routes are used: the document's generator calls it). */
export const webhookEndpointRouteDocs = (): RouteDocs<typeof WEBHOOK_ENDPOINT_ROUTES> => ({
  createWebhookEndpoint: {
    summary: 'Create a webhook endpoint',
    description:
      'An https URL that receives, signed per Standard Webhooks, the journal records and ' +
      'monitor events of your accounts it subscribes to, in journal order per account. The ' +
      'answer shows the signing secret once; a retry under the same Idempotency-Key replays ' +
      'it (stored sealed). At most 20 per principal.',
    response: 'Endpoint created, with its secret',
  },
  listWebhookEndpoints: {
    summary: 'List your webhook endpoints',
    response: 'Oldest first',
  },
  getWebhookEndpoint: {
    summary: 'Read a webhook endpoint',
    response: 'The endpoint (never its secret)',
  },
  updateWebhookEndpoint: {
    summary: 'Change a webhook endpoint',
    description:
      'Disable or enable it, change its events or description. Enabling a disabled endpoint ' +
      'resumes its deliveries where each account stopped.',
    response: 'The endpoint as changed',
  },
  rotateWebhookSecret: {
    summary: "Rotate a webhook endpoint's secret",
    description:
      'A new secret signs from now on; the one it replaces signs too for 24 h (deliveries ' +
      'carry a signature per live secret). The body is {}.',
    response: 'Secret rotated',
  },
  deleteWebhookEndpoint: {
    summary: 'Delete a webhook endpoint',
    description: 'Its deliveries stop. Deleting it again answers 404.',
    response: 'Deleted',
  },
});

/** An endpoint's deliveries (docs/contract.md §32). */
export const WEBHOOK_DELIVERY_ROUTES = {
  listWebhookDeliveries: {
    method: 'GET',
    path: '/v1/webhook-endpoints/{endpointId}/deliveries',
    tag: 'webhooks',
    params: WebhookEndpointPath,
    query: DeliveryQuery,
    response: {
      status: 200,
      body: named('WebhookDeliveryList', WebhookDeliveryList),
    },
  },
  retryWebhookDelivery: {
    method: 'POST',
    path: '/v1/webhook-endpoints/{endpointId}/deliveries/{deliveryId}/retry',
    tag: 'webhooks',
    params: DeliveryPath,
    response: {
      status: 202,
      body: named('WebhookDelivery', WebhookDelivery),
    },
  },
} as const satisfies RouteTable;

/** What the OpenAPI document says of each route of WEBHOOK_DELIVERY_ROUTES (a function, so that nothing of it is evaluated, or bundled, where only the routes are used: the document's generator calls it). */
export const webhookDeliveryRouteDocs = (): RouteDocs<typeof WEBHOOK_DELIVERY_ROUTES> => ({
  listWebhookDeliveries: {
    summary: "List a webhook endpoint's deliveries",
    description:
      'Newest first: event id and type, status, attempts, last HTTP status, next attempt. ' +
      'With status, a page may hold fewer than limit items: follow nextCursor. Kept 30 days.',
    response: 'A page of deliveries',
  },
  retryWebhookDelivery: {
    summary: 'Send a delivery again now',
    description:
      'One attempt now, out of order, whatever its status or schedule (the same webhook-id). ' +
      'No Idempotency-Key: sending twice sends twice, and receivers dedupe on webhook-id.',
    response: 'Queued; the delivery as it stood',
  },
});
