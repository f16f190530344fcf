import * as z from 'zod';
import type { WebhookEvent } from '../../domain/webhooks/delivery';
import type { WebhookWake } from '../../domain/webhooks/delivery-port';
import { lazySchema } from '../lazy';

/** What the webhook delivery queue carries (docs/contract.md §32). */

const Wake = lazySchema(() =>
  z.object({
    kind: z.literal('wake'),
    ownerId: z.string().min(1),
    endpointId: z.string().min(1),
    accountId: z.string().min(1),
  }),
);

const Retry = lazySchema(() =>
  z.object({
    kind: z.literal('retry'),
    ownerId: z.string().min(1),
    endpointId: z.string().min(1),
    deliveryId: z.string().min(1),
    manual: z.boolean(),
  }),
);

/** A journal topic event (raw delivery): only what waking needs is checked. */
const TopicEvent = lazySchema(() =>
  z.looseObject({
    specversion: z.literal('1.0'),
    id: z.string().min(1),
    type: z.string().min(1),
    subject: z.string().min(1),
    sequence: z.string().min(1),
  }),
);

export type WebhookMessage =
  | { readonly kind: 'event'; readonly event: WebhookEvent; readonly raw: string }
  | { readonly kind: 'wake'; readonly wake: WebhookWake };

/** The message, or undefined when it is none of these (a poison message). */
export function parseWebhookMessage(body: string): WebhookMessage | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return undefined;
  }
  const wake = z.union([Wake, Retry]).safeParse(json);
  if (wake.success) return { kind: 'wake', wake: wake.data };
  const event = TopicEvent.safeParse(json);
  if (event.success) return { kind: 'event', event: event.data as WebhookEvent, raw: body };
  return undefined;
}
