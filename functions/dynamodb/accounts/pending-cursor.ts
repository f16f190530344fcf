import { ValidationError } from '../../domain/shared/errors';
import { PENDING_CREDIT_SK_PREFIX } from '../table/keys';

/**
 * Where a listing of pending credits stands in one intake partition: the sort key of the last
 * item it returned from there, or null before the first.
 */
export type ShardPosition = string | null;

const MAX_SK_LENGTH = 200;

/** The opaque cursor of `GET …/pending-credits`: every partition's position, base64url JSON. */
export function encodePendingCursor(positions: readonly ShardPosition[]): string {
  return Buffer.from(JSON.stringify({ shards: positions }), 'utf8').toString('base64url');
}

/** The positions a cursor names, one per partition of the account; no cursor: every start. */
export function decodePendingCursor(cursor: string | undefined, shards: number): ShardPosition[] {
  if (cursor === undefined) return Array.from({ length: shards }, () => null);
  const invalid = (cause?: unknown) =>
    Object.assign(
      new ValidationError('The cursor is not one this API returned.', [
        { path: 'query.cursor', message: 'invalid cursor' },
      ]),
      cause === undefined ? {} : { cause },
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch (error) {
    throw invalid(error);
  }
  const positions = (parsed as { shards?: unknown } | null)?.shards;
  if (!Array.isArray(positions) || positions.length !== shards) throw invalid();
  const valid = (value: unknown): value is ShardPosition =>
    value === null ||
    (typeof value === 'string' &&
      value.startsWith(PENDING_CREDIT_SK_PREFIX) &&
      value.length <= MAX_SK_LENGTH);
  if (!positions.every(valid)) throw invalid();
  return positions;
}
