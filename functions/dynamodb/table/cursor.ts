import { ValidationError } from '../../domain/shared/errors';
import { ENTRY_SK_PREFIX } from './keys';

/** Opaque page cursor: the sort key of the last entry returned, base64url-encoded. */
export function encodeCursor(sk: string): string {
  return Buffer.from(JSON.stringify({ sk }), 'utf8').toString('base64url');
}

/** The sort key a cursor names; it must lie under `prefix` (entries, or holds). */
export function decodeCursor(cursor: string, prefix = ENTRY_SK_PREFIX): string {
  const invalid = () =>
    new ValidationError('The cursor is not one this API returned.', [
      { path: 'query.cursor', message: 'invalid cursor' },
    ]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch (error) {
    throw Object.assign(invalid(), { cause: error });
  }
  const sk = (parsed as { sk?: unknown } | null)?.sk;
  if (typeof sk !== 'string' || !sk.startsWith(prefix) || sk.length > 200) throw invalid();
  return sk;
}
