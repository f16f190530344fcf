import { SIGNATURE_TOLERANCE_SECONDS } from '../../domain/callbacks/signature';
import {
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from '../../domain/callbacks/standard-webhooks';
import { CallbackAnswer, CallbackEventSchema, CallbackPath } from '../../schemas/exports/callbacks';
import { named, type RouteDocs, type RouteTable } from '../spec';

/**
 * Signed execution callbacks (docs/contract.md §7): no authorizer; the handler checks the
 * signature over the raw body before anything is parsed, so a rejected callback changes nothing.
 */
export const CALLBACK_ROUTES = {
  postCallback: {
    method: 'POST',
    path: '/v1/callbacks/{applicationId}',
    tag: 'callbacks',
    public: {
      reason:
        'Export workers hold no AWS or JWT credentials (contract §7): the function verifies the signature over the raw body in constant time within ±300 s and changes nothing for a rejected callback. The route has its own, lower throttle.',
      throttle: 'callback-limits',
    },
    raw: true,
    params: CallbackPath,
    headers: [
      { name: 'Callback-Signature', description: 't=<unix seconds>,v1=<hex>[,v1=<hex>…]' },
      { name: WEBHOOK_ID_HEADER, description: 'Standard Webhooks message id: the CloudEvent id' },
      { name: WEBHOOK_TIMESTAMP_HEADER, description: 'Standard Webhooks: unix seconds' },
      {
        name: WEBHOOK_SIGNATURE_HEADER,
        description: 'Standard Webhooks: space-separated `v1,<base64>` / `v1a,<base64>` entries',
      },
    ],
    body: named('CallbackEvent', CallbackEventSchema),
    response: {
      status: 200,
      body: named('CallbackOutcome', CallbackAnswer),
    },
    problems: [
      'invalid_callback',
      'invalid_signature',
      'signature_expired',
      'payload_too_large',
      'unsupported_media_type',
      'unavailable',
    ],
  },
} as const satisfies RouteTable;

/** What the OpenAPI document says of each route of CALLBACK_ROUTES (a function, so that nothing of it is evaluated, or bundled, where only the routes are used: the document's generator calls it). */
export const callbackRouteDocs = (): RouteDocs<typeof CALLBACK_ROUTES> => ({
  postCallback: {
    summary: 'Report on an execution (signed)',
    description:
      'Signed execution callbacks, with either header set (one valid set suffices). ' +
      '`Callback-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, ' +
      'or Standard Webhooks: `webhook-id` (must equal the CloudEvent `id`), ' +
      '`webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256> v1a,<base64 ' +
      'ed25519>` over "<id>.<timestamp>.<raw body>". Several signatures allowed during ' +
      `rotation; ±${SIGNATURE_TOLERANCE_SECONDS} s window. A \`whsec_\` secret signs with its base64-decoded bytes.`,
    response: 'applied | duplicate | stale | superseded',
  },
});
