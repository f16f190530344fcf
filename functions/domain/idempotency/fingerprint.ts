import { createHash } from 'node:crypto';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Canonical JSON: object keys sorted by code unit, no insignificant whitespace, numbers and
 * strings as JSON.stringify writes them. Two bodies that differ only in key order or
 * whitespace canonicalize to the same text.
 */
export function canonicalJson(value: Json): string {
  const out: string[] = [];
  write(value, out);
  return out.join('');
}

/** Appends to one buffer instead of joining per level: fewer intermediate strings (see bench). */
function write(value: Json, out: string[]): void {
  if (value === null || typeof value !== 'object') {
    out.push(JSON.stringify(value));
  } else if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(',');
      write(value[i] as Json, out);
    }
    out.push(']');
  } else {
    out.push('{');
    const keys = Object.keys(value).sort();
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      if (i > 0) out.push(',');
      out.push(JSON.stringify(key), ':');
      write(value[key] as Json, out);
    }
    out.push('}');
  }
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * SHA-256 over (operation, path parameters, parsed body), computed on the request exactly as
 * received (before defaults are applied), so the first request and its retry hash alike.
 */
export function requestFingerprint(
  operation: string,
  pathParameters: Record<string, string>,
  body: Json,
): string {
  return sha256Hex(canonicalJson({ operation, pathParameters, body }));
}

/**
 * The inbox's content hash of a validated, normalised event or callback (ids lower-cased,
 * `sequence` numeric): everything but `time`, which a producer may restamp on a resend
 * (docs/contract.md §6, §7). The same (source, id) with another hash is a conflict.
 */
export function eventContentHash(event: { readonly [key: string]: Json | undefined }): string {
  const { time: _time, ...content } = event;
  return sha256Hex(canonicalJson(content as Json));
}

/**
 * An inbox record matches a new delivery when the hashes agree. Records written before the hash
 * existed have none and count as duplicates.
 */
export function sameInboxContent(stored: unknown, contentHash: string | undefined): boolean {
  return typeof stored !== 'string' || contentHash === undefined || stored === contentHash;
}

/**
 * The storage identity of an idempotency scope. Hashing keeps raw client keys out of the table
 * and the logs, and makes any printable key safe inside a DynamoDB key.
 */
export function idempotencyScopeId(principal: string, operation: string, key: string): string {
  return sha256Hex(JSON.stringify([principal, operation, key]));
}
