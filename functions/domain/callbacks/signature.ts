import { createHmac, timingSafeEqual } from 'node:crypto';
import { InvalidSignatureError, SignatureExpiredError } from '../shared/errors';
import { hmacKeyBytes } from './keys';

/** `|now − t|` beyond this is `signature_expired` (docs/contract.md §7). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export interface SignatureHeader {
  readonly timestamp: number;
  readonly signatures: readonly string[];
}

/**
 * Parses `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`. Unknown schemes are ignored so that a future
 * `v2` can be added beside `v1`; a second `t`, a non-numeric `t` or a non-hex `v1` is malformed.
 */
export function parseSignatureHeader(header: string | undefined): SignatureHeader | undefined {
  if (!header || header.length > 4096) return undefined;
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) return undefined;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined || !/^[0-9]{1,12}$/.test(value)) return undefined;
      timestamp = Number(value);
    } else if (key === 'v1') {
      if (!/^[0-9a-fA-F]{64}$/.test(value)) return undefined;
      signatures.push(value.toLowerCase());
    }
  }
  if (timestamp === undefined || signatures.length === 0) return undefined;
  return { timestamp, signatures };
}

/** Hex HMAC-SHA256 of `<t>.<raw body>`; a `whsec_` secret signs with its decoded bytes. */
export function computeSignature(secret: string, timestamp: number, rawBody: Buffer): string {
  const key = hmacKeyBytes(secret);
  if (!key) throw new Error('a whsec_ secret must be base64 after the prefix');
  return createHmac('sha256', key).update(`${timestamp}.`, 'utf8').update(rawBody).digest('hex');
}

/** A header value for the body: one `v1` per secret (what a sender does during rotation). */
export function signCallback(
  secrets: readonly string[],
  timestamp: number,
  rawBody: Buffer,
): string {
  return [
    `t=${timestamp}`,
    ...secrets.map((s) => `v1=${computeSignature(s, timestamp, rawBody)}`),
  ].join(',');
}

/**
 * Valid when any `v1` matches any active secret, compared in constant time, and the timestamp is
 * within the window. The signature is checked before the timestamp, so a forger learns nothing
 * about the window; a genuine but old signature is `signature_expired`.
 */
export function verifyCallbackSignature(input: {
  readonly header: string | undefined;
  readonly rawBody: Buffer;
  readonly secrets: readonly string[];
  readonly nowSeconds: number;
}): void {
  const parsed = parseSignatureHeader(input.header);
  if (!parsed) throw new InvalidSignatureError();
  const presented = parsed.signatures.map((hex) => Buffer.from(hex, 'hex'));
  let matched = false;
  for (const secret of input.secrets) {
    const expected = Buffer.from(computeSignature(secret, parsed.timestamp, input.rawBody), 'hex');
    for (const candidate of presented) {
      // Every pair is compared (no early exit) so timing does not reveal which secret matched.
      if (candidate.length === expected.length && timingSafeEqual(candidate, expected))
        matched = true;
    }
  }
  if (!matched) throw new InvalidSignatureError();
  if (Math.abs(input.nowSeconds - parsed.timestamp) > SIGNATURE_TOLERANCE_SECONDS) {
    throw new SignatureExpiredError(SIGNATURE_TOLERANCE_SECONDS);
  }
}
