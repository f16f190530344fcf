import { type AccountImage, firstSequenceOf } from '../journal/model';
import { errorFields, type Log } from '../shared/log';
import { METRICS, type MetricsPort } from '../shared/metrics';
import { daySumsOf } from '../statements/days';
import type { DaySumsPort } from '../statements/port';

/** What adding an update's day sums needs of the projector. */
export interface DaySumsDeps {
  readonly days?: DaySumsPort;
  readonly clock: () => Date;
  readonly log: Log;
  readonly metrics: MetricsPort;
}

/**
 * The day sums of an update whose records stand in the journal (written now or before; not one
 * the head stands `behind`), once: a day that added this update already refuses it
 * (docs/contract.md §26 "Day sums"). Isolated like monitors: a failure is logged and counted and
 * answers false; the projector then stops the account's day sums for the rest of the batch
 * (they are added in version order) and has the stream retry from this update, where its
 * records are found projected and its day sums added then; the journal goes on.
 */
export async function addDaySums(
  deps: DaySumsDeps,
  image: AccountImage,
  projected: { readonly behind?: true },
): Promise<boolean> {
  const days = daySumsOf(image.changes);
  if (!deps.days || days.length === 0 || projected.behind) return true;
  const { accountId, version } = image;
  const at = deps.clock().toISOString();
  try {
    await deps.days.addDays(accountId, firstSequenceOf(image), version, days, at);
    return true;
  } catch (error) {
    deps.log.error('day sums not added; the stream will retry them', {
      accountId,
      version,
      ...errorFields(error),
    });
    deps.metrics.count(METRICS.daySumsFailure);
    return false;
  }
}
