import { EFFECTIVE_SKEW_MS } from '../../contract/effective-time';
import { EffectiveTimeRefused, type ValidationError } from '../shared/errors';
import { DAY_MS } from '../shared/time';

/**
 * When a movement counts in the books (docs/contract.md §26): the caller's `effectiveAt`, or the
 * commit's own time. Stored and answered as UTC with milliseconds (`toISOString`), so text
 * order is time order in every key that holds it.
 */

/** What every service that writes movements a caller may date is built with. */
export interface EffectiveTimeOptions {
  /** `BACKDATE_LIMIT_DAYS` (docs/contract.md §26). */
  readonly backdateLimitDays: number;
}

/**
 * Where a refused `effectiveAt` sits in the input, as schema errors name it: `body.effectiveAt`
 * (HTTP), `data.effectiveAt` (an event), `body.operations.<i>.body.effectiveAt` (a batch's).
 */
export type EffectivePath = `${string}effectiveAt`;

/**
 * The effective time of a movement committed at `now`: `given` normalised to UTC, or `now`.
 * Later than now + 5 s, or earlier than `backdateLimitDays` before now → `validation_failed`
 * (not recorded: a corrected retry with the same key proceeds). The closed period is the
 * account's to judge, in the write itself (`period_closed`).
 */
export function resolveEffectiveAt(
  given: string | undefined,
  now: Date,
  backdateLimitDays: number,
  path: EffectivePath = 'body.effectiveAt',
): string {
  if (given === undefined) return now.toISOString();
  const at = new Date(given);
  const time = at.getTime();
  if (Number.isNaN(time)) throw refused(path, 'must be an ISO 8601 instant with an offset');
  if (time > now.getTime() + EFFECTIVE_SKEW_MS) {
    throw refused(path, `must not be later than now (+${EFFECTIVE_SKEW_MS / 1000} s)`);
  }
  if (time < now.getTime() - backdateLimitDays * DAY_MS) {
    throw refused(path, `must not be more than ${backdateLimitDays} days in the past`);
  }
  return at.toISOString();
}

function refused(path: EffectivePath, message: string): ValidationError {
  return new EffectiveTimeRefused(`effectiveAt ${message}.`, [{ path, message }]);
}
