import * as z from 'zod';
import {
  ALL_WEBHOOK_EVENTS,
  MAX_WEBHOOK_ACCOUNT_IDS,
  MAX_WEBHOOK_DESCRIPTION,
  MAX_WEBHOOK_ENDPOINTS_PER_PRINCIPAL,
  MAX_WEBHOOK_URL_LENGTH,
  WEBHOOK_EVENT_TYPES,
} from '../../contract/webhooks';
import { DELIVERY_STATUSES } from '../../domain/webhooks/delivery';
import { lazySchema } from '../lazy';
import { Timestamp, Uuid } from '../shared';

/** Wire shapes of webhook endpoints (docs/contract.md §32). */

const EventList = lazySchema(() =>
  z
    .union([
      z.array(z.literal(ALL_WEBHOOK_EVENTS)).length(1),
      z
        .array(z.enum(WEBHOOK_EVENT_TYPES))
        .min(1)
        .max(WEBHOOK_EVENT_TYPES.length)
        .refine((list) => new Set(list).size === list.length, 'must not repeat a type'),
    ])
    .meta({
      description: `a subset of ${WEBHOOK_EVENT_TYPES.join(', ')}, or ["*"] for every type`,
    }),
);

const Description = lazySchema(() => z.string().min(1).max(MAX_WEBHOOK_DESCRIPTION));

export const CreateWebhookEndpointBody = lazySchema(() =>
  z.strictObject({
    url: z.string().min(1).max(MAX_WEBHOOK_URL_LENGTH).meta({
      description: 'https: (locally http://127.0.0.1 too); deployed, public addresses only',
    }),
    events: EventList,
    accountIds: z
      .array(Uuid)
      .min(1)
      .max(MAX_WEBHOOK_ACCOUNT_IDS)
      .optional()
      .meta({ description: 'accounts of yours to hear about; absent: all of them' }),
    description: Description.optional(),
  }),
);

export const UpdateWebhookEndpointBody = lazySchema(() =>
  z
    .strictObject({
      status: z.enum(['enabled', 'disabled']).optional(),
      events: EventList.optional(),
      description: Description.nullable().optional().meta({ description: 'null removes it' }),
    })
    .refine((b) => Object.keys(b).length > 0, 'must change something'),
);

export const WebhookEndpointPath = lazySchema(() => z.strictObject({ endpointId: Uuid }));

export const WebhookEndpoint = lazySchema(() =>
  z.object({
    id: Uuid,
    url: z.string(),
    events: z.array(z.string()),
    accountIds: z.array(Uuid).nullable().meta({ description: 'null: every account of the owner' }),
    description: z.string().optional(),
    status: z
      .enum(['enabled', 'disabled'])
      .meta({ description: 'disabled by PATCH, or after too many failed attempts in a row' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
);

const Secret = lazySchema(() =>
  z.string().startsWith('whsec_').meta({
    description:
      'the signing secret, shown only in this answer (and its replays under the same key)',
  }),
);

export const CreatedWebhookEndpoint = lazySchema(() => WebhookEndpoint.extend({ secret: Secret }));

export const RotatedWebhookSecret = lazySchema(() =>
  WebhookEndpoint.extend({
    secret: Secret,
    previousSecretExpiresAt: Timestamp.nullable().meta({
      description: 'until when the replaced secret still signs (24 h); null if none was live',
    }),
  }),
);

export const WebhookEndpointList = lazySchema(() =>
  z.object({
    items: z.array(WebhookEndpoint).max(MAX_WEBHOOK_ENDPOINTS_PER_PRINCIPAL),
  }),
);

export const DeliveryPath = lazySchema(() =>
  z.strictObject({
    endpointId: Uuid,
    deliveryId: z.string().regex(/^[0-9a-z]{9}[0-9a-f]{15}$/, 'not a delivery id'),
  }),
);

export const DeliveryQuery = lazySchema(() =>
  z.strictObject({
    status: z.enum(DELIVERY_STATUSES).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(20),
    cursor: z.string().min(1).max(1024).optional(),
  }),
);

export const WebhookDelivery = lazySchema(() =>
  z.object({
    id: z.string().meta({ description: 'sorts by creation' }),
    eventId: z.string().meta({ description: 'the webhook-id header of every attempt' }),
    eventType: z.string(),
    accountId: Uuid,
    status: z.enum(DELIVERY_STATUSES).meta({
      description:
        'pending: in flight or waiting for its next attempt; succeeded: a 2xx; failed: retries ran out',
    }),
    attempts: z.number().int().min(0),
    lastStatus: z.number().int().nullable().meta({
      description: "the last attempt's HTTP status; null: none (timeout, refused address)",
    }),
    lastError: z.string().optional(),
    lastAttemptAt: Timestamp.nullable(),
    nextAttemptAt: Timestamp.nullable().meta({ description: 'null once finished' }),
    createdAt: Timestamp,
  }),
);

export const WebhookDeliveryList = lazySchema(() =>
  z.object({
    items: z.array(WebhookDelivery).meta({ description: 'newest first' }),
    nextCursor: z.string().nullable(),
  }),
);
