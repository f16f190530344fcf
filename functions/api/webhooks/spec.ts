import * as z from 'zod';
import { OPERATION_IDS } from '../../domain/idempotency/operations';
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
import { named, type RouteTable } from '../spec';

const ENDPOINT = named('WebhookEndpoint', WebhookEndpoint);

/** Webhook endpoints (docs/contract.md §32): the owner's only; another's is `404`. */
export const WEBHOOK_ENDPOINT_ROUTES = {
  createWebhookEndpoint: {
    method: 'POST',
    path: '/v1/webhook-endpoints',
    idempotency: OPERATION_IDS.createWebhookEndpoint,
    summary: 'Create a webhook endpoint',
    description:
      'An https URL that receives, signed per Standard Webhooks, the journal records and ' +
      'monitor events of your accounts it subscribes to, in journal order per account. The ' +
      'answer shows the signing secret once; a retry under the same Idempotency-Key replays ' +
      'it (stored sealed). At most 20 per principal.',
    tag: 'webhooks',
    body: named('CreateWebhookEndpoint', CreateWebhookEndpointBody),
    response: {
      status: 201,
      description: 'Endpoint created, with its secret',
      body: named('CreatedWebhookEndpoint', CreatedWebhookEndpoint),
    },
    problems: ['webhook_endpoint_limit_reached'],
  },
  listWebhookEndpoints: {
    method: 'GET',
    path: '/v1/webhook-endpoints',
    summary: 'List your webhook endpoints',
    tag: 'webhooks',
    response: {
      status: 200,
      description: 'Oldest first',
      body: named('WebhookEndpointList', WebhookEndpointList),
    },
  },
  getWebhookEndpoint: {
    method: 'GET',
    path: '/v1/webhook-endpoints/{endpointId}',
    summary: 'Read a webhook endpoint',
    tag: 'webhooks',
    params: WebhookEndpointPath,
    response: { status: 200, description: 'The endpoint (never its secret)', body: ENDPOINT },
  },
  updateWebhookEndpoint: {
    method: 'PATCH',
    path: '/v1/webhook-endpoints/{endpointId}',
    summary: 'Change a webhook endpoint',
    description:
      'Disable or enable it, change its events or description. Enabling a disabled endpoint ' +
      'resumes its deliveries where each account stopped.',
    tag: 'webhooks',
    params: WebhookEndpointPath,
    body: named('UpdateWebhookEndpoint', UpdateWebhookEndpointBody),
    response: { status: 200, description: 'The endpoint as changed', body: ENDPOINT },
    problems: ['payload_too_large', 'unsupported_media_type'],
  },
  rotateWebhookSecret: {
    method: 'POST',
    path: '/v1/webhook-endpoints/{endpointId}/secret-rotations',
    idempotency: OPERATION_IDS.rotateWebhookSecret,
    summary: "Rotate a webhook endpoint's secret",
    description:
      'A new secret signs from now on; the one it replaces signs too for 24 h (deliveries ' +
      'carry a signature per live secret). The body is {}.',
    tag: 'webhooks',
    params: WebhookEndpointPath,
    body: named('RotateWebhookSecret', z.strictObject({})),
    response: {
      status: 201,
      description: 'Secret rotated',
      body: named('RotatedWebhookSecret', RotatedWebhookSecret),
    },
  },
  deleteWebhookEndpoint: {
    method: 'DELETE',
    path: '/v1/webhook-endpoints/{endpointId}',
    summary: 'Delete a webhook endpoint',
    description: 'Its deliveries stop. Deleting it again answers 404.',
    tag: 'webhooks',
    params: WebhookEndpointPath,
    response: { status: 204, description: 'Deleted' },
  },
} as const satisfies RouteTable;

/** An endpoint's deliveries (docs/contract.md §32). */
export const WEBHOOK_DELIVERY_ROUTES = {
  listWebhookDeliveries: {
    method: 'GET',
    path: '/v1/webhook-endpoints/{endpointId}/deliveries',
    summary: "List a webhook endpoint's deliveries",
    description:
      'Newest first: event id and type, status, attempts, last HTTP status, next attempt. ' +
      'With status, a page may hold fewer than limit items: follow nextCursor. Kept 30 days.',
    tag: 'webhooks',
    params: WebhookEndpointPath,
    query: DeliveryQuery,
    response: {
      status: 200,
      description: 'A page of deliveries',
      body: named('WebhookDeliveryList', WebhookDeliveryList),
    },
  },
  retryWebhookDelivery: {
    method: 'POST',
    path: '/v1/webhook-endpoints/{endpointId}/deliveries/{deliveryId}/retry',
    summary: 'Send a delivery again now',
    description:
      'One attempt now, out of order, whatever its status or schedule (the same webhook-id). ' +
      'No Idempotency-Key: sending twice sends twice, and receivers dedupe on webhook-id.',
    tag: 'webhooks',
    params: DeliveryPath,
    response: {
      status: 202,
      description: 'Queued; the delivery as it stood',
      body: named('WebhookDelivery', WebhookDelivery),
    },
  },
} as const satisfies RouteTable;
