import {
  signStandardWebhook,
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from '../callbacks/standard-webhooks';
import { epochSeconds } from '../shared/time';

/**
 * The headers of one attempt (Standard Webhooks, docs/contract.md §32): `webhook-id` is the
 * event's id (the same on every retry), `webhook-timestamp` the attempt's time, and
 * `webhook-signature` one `v1,<base64 HMAC-SHA256>` per live secret.
 */
export function signedHeaders(input: {
  readonly eventId: string;
  readonly body: string;
  readonly secrets: readonly string[];
  readonly now: Date;
}): Record<string, string> {
  const timestamp = epochSeconds(input.now);
  return {
    'content-type': 'application/json',
    'user-agent': 'idempotent-ledger-webhooks/1',
    [WEBHOOK_ID_HEADER]: input.eventId,
    [WEBHOOK_TIMESTAMP_HEADER]: String(timestamp),
    [WEBHOOK_SIGNATURE_HEADER]: signStandardWebhook({
      id: input.eventId,
      timestamp,
      rawBody: Buffer.from(input.body, 'utf8'),
      secrets: input.secrets,
    }),
  };
}
