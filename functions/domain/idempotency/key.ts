import { IdempotencyKeyInvalidError, IdempotencyKeyMissingError } from '../shared/errors';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/**
 * Reads an `Idempotency-Key` header value, bare (`k1`) or as an RFC 8941 sf-string (`"k1"`);
 * both name the key `k1`. The decoded key must be 1–255 printable ASCII characters.
 */
export function parseIdempotencyKey(headerValue: string | undefined): string {
  if (headerValue === undefined) throw new IdempotencyKeyMissingError();
  const value = headerValue.trim();
  if (value.length === 0) throw new IdempotencyKeyInvalidError('Idempotency-Key is empty.');
  const key = value.startsWith('"') ? decodeSfString(value) : value;
  if (key.length === 0) throw new IdempotencyKeyInvalidError('Idempotency-Key is empty.');
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new IdempotencyKeyInvalidError(
      `Idempotency-Key is longer than ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`,
    );
  }
  if (!PRINTABLE_ASCII.test(key)) {
    throw new IdempotencyKeyInvalidError('Idempotency-Key must be printable ASCII.');
  }
  return key;
}

/** RFC 8941 §4.2.5: a quoted string where only `\"` and `\\` are escapes. */
function decodeSfString(value: string): string {
  let out = '';
  for (let i = 1; i < value.length; i++) {
    const ch = value[i];
    if (ch === '\\') {
      const next = value[i + 1];
      if (next !== '"' && next !== '\\') {
        throw new IdempotencyKeyInvalidError('Idempotency-Key has an invalid escape.');
      }
      out += next;
      i++;
    } else if (ch === '"') {
      if (i !== value.length - 1) {
        throw new IdempotencyKeyInvalidError('Idempotency-Key has text after its closing quote.');
      }
      return out;
    } else {
      out += ch;
    }
  }
  throw new IdempotencyKeyInvalidError('Idempotency-Key has no closing quote.');
}
