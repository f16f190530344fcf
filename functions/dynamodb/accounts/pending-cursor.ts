import { ValidationError } from '../../domain/shared/errors';
import { PENDING_CREDIT_SK_PREFIX } from '../table/keys';

/**
 * Where a listing of pending credits stands in one intake partition: the sort key of the last
 * item it returned from there, or null before the first.
 */
export type ShardPosition = string | null;

/**
 * Where a paging run stands (docs/contract.md §24): per partition, its position in the current
 * pass and its gate's `accepted` count read before that pass began (null: not known, so the
 * partition is read once more before the run ends).
 */
export interface PendingRun {
  readonly positions: ShardPosition[];
  readonly accepted: (number | null)[];
}

const MAX_SK_LENGTH = 200;

/** The opaque cursor of `GET …/pending-credits`: every partition's standing, base64url JSON. */
export function encodePendingCursor(run: PendingRun): string {
  const body = { shards: run.positions, accepted: run.accepted };
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

/** The run a cursor names, one standing per partition of the account; no cursor: undefined. */
export function decodePendingCursor(
  cursor: string | undefined,
  shards: number,
): PendingRun | undefined {
  if (cursor === undefined) return undefined;
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
  const body = parsed as { shards?: unknown; accepted?: unknown } | null;
  const positions = body?.shards;
  if (!Array.isArray(positions) || positions.length !== shards) throw invalid();
  // A cursor from before counts were kept: every count unknown, so every partition is re-read.
  const accepted = body?.accepted ?? positions.map(() => null);
  if (!Array.isArray(accepted) || accepted.length !== shards) throw invalid();
  const count = (value: unknown): value is number | null =>
    value === null || (Number.isSafeInteger(value) && (value as number) >= 0);
  const valid = (value: unknown): value is ShardPosition =>
    value === null ||
    (typeof value === 'string' &&
      value.startsWith(PENDING_CREDIT_SK_PREFIX) &&
      value.length <= MAX_SK_LENGTH);
  if (!positions.every(valid) || !accepted.every(count)) throw invalid();
  return { positions, accepted };
}
