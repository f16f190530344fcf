import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

/**
 * How callback keys are written (docs/contract.md §7), the Standard Webhooks way:
 * `whsec_<base64>` is an HMAC secret used as its decoded bytes (under both header schemes); any
 * other secret string is used as its UTF-8 bytes; `whpk_<base64 of a raw 32-byte key>` is an
 * ed25519 public key; `whsk_<base64>` the matching signing key (a 32-byte seed, or the 64-byte
 * seed‖public form other tools write), which only a sender holds.
 */
export const SECRET_PREFIX = 'whsec_';
export const PUBLIC_KEY_PREFIX = 'whpk_';
export const SIGNING_KEY_PREFIX = 'whsk_';
/** A shorter HMAC key is rejected at load time; for `whsec_` the decoded bytes count. */
const MIN_SECRET_BYTES = 16;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
// DER headers that turn a raw ed25519 key into SPKI / PKCS#8 (RFC 8410).
const SPKI_ED25519 = Buffer.from('302a300506032b6570032100', 'hex');
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

/** Strict base64 (node's decoder skips junk silently); undefined when the text is not base64. */
function decodeBase64(text: string): Buffer | undefined {
  return text.length > 0 && BASE64.test(text) ? Buffer.from(text, 'base64') : undefined;
}

/** The HMAC key bytes of a secret, or undefined for a `whsec_` value that is not base64. */
export function hmacKeyBytes(secret: string): Buffer | undefined {
  return secret.startsWith(SECRET_PREFIX)
    ? decodeBase64(secret.slice(SECRET_PREFIX.length))
    : Buffer.from(secret, 'utf8');
}

/** A secret the service accepts: its key bytes exist and are at least MIN_SECRET_BYTES long. */
export function isUsableSecret(secret: string): boolean {
  return (hmacKeyBytes(secret)?.length ?? 0) >= MIN_SECRET_BYTES;
}

/** The ed25519 public key of a `whpk_` value, or undefined when it is not one. */
export function parsePublicKey(value: string): KeyObject | undefined {
  if (!value.startsWith(PUBLIC_KEY_PREFIX)) return undefined;
  const raw = decodeBase64(value.slice(PUBLIC_KEY_PREFIX.length));
  if (raw?.length !== 32) return undefined;
  return createPublicKey({ key: Buffer.concat([SPKI_ED25519, raw]), format: 'der', type: 'spki' });
}

/** The ed25519 private key of a `whsk_` value, or undefined when it is not one. */
export function parseSigningKey(value: string): KeyObject | undefined {
  if (!value.startsWith(SIGNING_KEY_PREFIX)) return undefined;
  const raw = decodeBase64(value.slice(SIGNING_KEY_PREFIX.length));
  if (raw?.length !== 32 && raw?.length !== 64) return undefined;
  const seed = raw.subarray(0, 32);
  return createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519, seed]),
    format: 'der',
    type: 'pkcs8',
  });
}

/** `whpk_…` of a public key (what an operator configures for a sender's signing key). */
export function formatPublicKey(key: KeyObject): string {
  const raw = key.export({ format: 'der', type: 'spki' }).subarray(SPKI_ED25519.length);
  return `${PUBLIC_KEY_PREFIX}${raw.toString('base64')}`;
}

/** `whsk_…` (32-byte seed) of a private key. */
export function formatSigningKey(key: KeyObject): string {
  const seed = key.export({ format: 'der', type: 'pkcs8' }).subarray(PKCS8_ED25519.length);
  return `${SIGNING_KEY_PREFIX}${seed.toString('base64')}`;
}

/**
 * An application's configured keys split by use: HMAC secrets (both header sets) and `whpk_`
 * public keys (`v1a` only). One list may hold both, as the AWS secret document does.
 */
export interface CallbackKeySet {
  readonly secrets: readonly string[];
  readonly publicKeys: readonly string[];
}

export function splitCallbackKeys(entries: readonly string[]): CallbackKeySet {
  return {
    secrets: entries.filter((entry) => !entry.startsWith(PUBLIC_KEY_PREFIX)),
    publicKeys: entries.filter((entry) => entry.startsWith(PUBLIC_KEY_PREFIX)),
  };
}

/** A configured entry the service can use: a `whpk_` public key, else a usable secret. */
export function isUsableCallbackKey(entry: string): boolean {
  return entry.startsWith(PUBLIC_KEY_PREFIX)
    ? parsePublicKey(entry) !== undefined
    : isUsableSecret(entry);
}
