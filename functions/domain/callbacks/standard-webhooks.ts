import { createHmac, type KeyObject, sign, timingSafeEqual, verify } from 'node:crypto';
import { InvalidSignatureError, SignatureExpiredError } from '../shared/errors';
import { hmacKeyBytes, parsePublicKey } from './keys';
import { SIGNATURE_TOLERANCE_SECONDS } from './signature';

/**
 * Standard Webhooks (standardwebhooks.com) on the callback route, beside `Callback-Signature`
 * (docs/contract.md §7). Signed content: `<webhook-id>.<webhook-timestamp>.<raw body>`.
 * `webhook-signature` is a space-separated list of `v1,<base64 HMAC-SHA256>` and
 * `v1a,<base64 ed25519>` entries (several during a rotation); unknown versions are ignored.
 */
export const WEBHOOK_ID_HEADER = 'webhook-id';
export const WEBHOOK_TIMESTAMP_HEADER = 'webhook-timestamp';
export const WEBHOOK_SIGNATURE_HEADER = 'webhook-signature';

export interface StandardWebhookHeaders {
  readonly id: string | undefined;
  readonly timestamp: string | undefined;
  readonly signature: string | undefined;
}

const ID = /^[\x21-\x7e]{1,256}$/;
const TIMESTAMP = /^[0-9]{1,12}$/;
const HMAC_BYTES = 32;
const ED25519_SIGNATURE_BYTES = 64;

function signedContent(id: string, timestamp: number, rawBody: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), rawBody]);
}

function hmac(key: Buffer, content: Buffer): Buffer {
  return createHmac('sha256', key).update(content).digest();
}

/**
 * A `webhook-signature` value for the body: one `v1` per secret and one `v1a` per ed25519
 * signing key (what a sender does during a rotation). A secret that is not usable throws.
 */
export function signStandardWebhook(input: {
  readonly id: string;
  readonly timestamp: number;
  readonly rawBody: Buffer;
  readonly secrets?: readonly string[];
  readonly signingKeys?: readonly KeyObject[];
}): string {
  const content = signedContent(input.id, input.timestamp, input.rawBody);
  const symmetric = (input.secrets ?? []).map((secret) => {
    const key = hmacKeyBytes(secret);
    if (!key) throw new Error('a whsec_ secret must be base64 after the prefix');
    return `v1,${hmac(key, content).toString('base64')}`;
  });
  const asymmetric = (input.signingKeys ?? []).map(
    (key) => `v1a,${sign(null, content, key).toString('base64')}`,
  );
  return [...symmetric, ...asymmetric].join(' ');
}

/** Entries of a `webhook-signature` header by version; undefined when it is missing or too long. */
function parseSignatures(header: string | undefined) {
  if (!header || header.length > 4096) return undefined;
  const v1: Buffer[] = [];
  const v1a: Buffer[] = [];
  for (const entry of header.split(' ')) {
    const comma = entry.indexOf(',');
    if (comma < 0) continue;
    const version = entry.slice(0, comma);
    const value = Buffer.from(entry.slice(comma + 1), 'base64');
    if (version === 'v1' && value.length === HMAC_BYTES) v1.push(value);
    if (version === 'v1a' && value.length === ED25519_SIGNATURE_BYTES) v1a.push(value);
  }
  return { v1, v1a };
}

/**
 * Valid when any `v1` matches any secret or any `v1a` verifies under any public key, and the
 * timestamp is within the window. As for `Callback-Signature`, the signature is checked before
 * the timestamp: a forger learns nothing about the window, a genuine old one is expired.
 * Missing or malformed headers, or no match → invalid_signature. Returns the verified id.
 */
export function verifyStandardWebhook(input: {
  readonly headers: StandardWebhookHeaders;
  readonly rawBody: Buffer;
  readonly secrets: readonly string[];
  readonly publicKeys: readonly string[];
  readonly nowSeconds: number;
}): string {
  const { id, timestamp: timestampText } = input.headers;
  const signatures = parseSignatures(input.headers.signature);
  if (!id || !ID.test(id) || !timestampText || !TIMESTAMP.test(timestampText) || !signatures) {
    throw new InvalidSignatureError();
  }
  const timestamp = Number(timestampText);
  const content = signedContent(id, timestamp, input.rawBody);
  let matched = false;
  for (const secret of input.secrets) {
    const key = hmacKeyBytes(secret);
    if (!key) continue;
    const expected = hmac(key, content);
    // Every pair is compared (no early exit) so timing does not reveal which secret matched.
    for (const candidate of signatures.v1) if (timingSafeEqual(candidate, expected)) matched = true;
  }
  for (const text of input.publicKeys) {
    const key = parsePublicKey(text);
    if (!key) continue;
    for (const candidate of signatures.v1a)
      if (verify(null, content, key, candidate)) matched = true;
  }
  if (!matched) throw new InvalidSignatureError();
  if (Math.abs(input.nowSeconds - timestamp) > SIGNATURE_TOLERANCE_SECONDS) {
    throw new SignatureExpiredError(SIGNATURE_TOLERANCE_SECONDS);
  }
  return id;
}
