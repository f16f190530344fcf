import {
  InvalidCallbackError,
  InvalidSignatureError,
  SignatureExpiredError,
} from '../shared/errors';
import { splitCallbackKeys } from './keys';
import { SIGNATURE_TOLERANCE_SECONDS, verifyCallbackSignature } from './signature';
import { type StandardWebhookHeaders, verifyStandardWebhook } from './standard-webhooks';

const WEBHOOK_HEADERS_INVALID =
  'The webhook-id, webhook-timestamp or webhook-signature header is missing, malformed or does not match.';

/** The signature headers of a callback request (docs/contract.md §7). */
export interface CallbackSignatureHeaders extends StandardWebhookHeaders {
  /** `Callback-Signature: t=…,v1=…`. */
  readonly callbackSignature: string | undefined;
}

/**
 * Verifies a callback signed with either header set; one valid set suffices. Of two failing
 * sets, a genuine but old signature wins (`signature_expired`) over `invalid_signature`.
 * `keys` is the application's configured list: secrets and `whpk_` public keys together.
 * Returns the `webhook-id` to hold against the CloudEvent id once the body is parsed.
 */
export function verifyCallback(input: {
  readonly headers: CallbackSignatureHeaders;
  readonly rawBody: Buffer;
  readonly keys: readonly string[];
  readonly nowSeconds: number;
}): { readonly webhookId: string | undefined } {
  const { headers, rawBody, nowSeconds } = input;
  const { secrets, publicKeys } = splitCallbackKeys(input.keys);
  const attempts: (() => void)[] = [];
  if (
    headers.id !== undefined ||
    headers.timestamp !== undefined ||
    headers.signature !== undefined
  ) {
    attempts.push(() =>
      verifyStandardWebhook({ headers, rawBody, secrets, publicKeys, nowSeconds }),
    );
  }
  if (headers.callbackSignature !== undefined) {
    attempts.push(() =>
      verifyCallbackSignature({ header: headers.callbackSignature, rawBody, secrets, nowSeconds }),
    );
  }
  let expired = false;
  for (const attempt of attempts) {
    try {
      attempt();
      return { webhookId: headers.id };
    } catch (error) {
      if (error instanceof SignatureExpiredError) expired = true;
      else if (!(error instanceof InvalidSignatureError)) throw error;
    }
  }
  if (expired) throw new SignatureExpiredError(SIGNATURE_TOLERANCE_SECONDS);
  throw headers.callbackSignature === undefined && attempts.length > 0
    ? new InvalidSignatureError(WEBHOOK_HEADERS_INVALID)
    : new InvalidSignatureError();
}

/** `webhook-id`, when sent, must name the CloudEvent it signs (compared case-insensitively). */
export function assertWebhookIdMatches(webhookId: string | undefined, eventId: string): void {
  if (webhookId === undefined || webhookId.toLowerCase() === eventId.toLowerCase()) return;
  throw new InvalidCallbackError('webhook-id differs from the CloudEvent id.', [
    { path: 'header.webhook-id', message: 'must equal the CloudEvent id' },
  ]);
}
