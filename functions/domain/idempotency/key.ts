import {
  IdempotencyKeyInvalidError,
  IdempotencyKeyMissingError,
  ValidationError,
} from '../shared/errors';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
export const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/**
 * Reads an `Idempotency-Key` header value, bare (`k1`) or as an RFC 8941 sf-string (`"k1"`);
 * both name the key `k1`. The decoded key must be 1–255 printable ASCII characters.
 *
 * API Gateway (and the local adapter) join repeated headers with ",", so a comma outside an
 * sf-string means two values: `two-a,two-b` is refused, never taken as a third key that a
 * later retry with `two-a` alone would not match (docs/contract.md §4).
 */
export function parseIdempotencyKey(headerValue: string | undefined): string {
  if (headerValue === undefined) throw new IdempotencyKeyMissingError();
  const value = headerValue.trim();
  if (value.length === 0) throw new IdempotencyKeyInvalidError('Idempotency-Key is empty.');
  if (hasCommaOutsideString(value)) throw new MoreThanOneKeyError();
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

/** 400 validation_failed: the header holds a list, not one key. */
class MoreThanOneKeyError extends ValidationError {
  constructor() {
    super(
      'Idempotency-Key holds more than one value: it was sent repeatedly (repeated headers ' +
        'arrive joined with ",") or contains a comma outside an RFC 8941 string. Send one ' +
        'Idempotency-Key header; a key containing a comma must be an RFC 8941 string such as "a,b".',
      [{ path: 'header.Idempotency-Key', message: 'must be one value: a comma separates values' }],
    );
  }
}

/** A comma that is not inside an sf-string (RFC 8941 §4.2.5: only `\"` and `\\` escape). */
function hasCommaOutsideString(value: string): boolean {
  let inString = false;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (inString && ch === '\\') i++;
    else if (ch === '"') inString = !inString;
    else if (ch === ',' && !inString) return true;
  }
  return false;
}
