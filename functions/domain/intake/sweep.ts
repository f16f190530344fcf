import { UnavailableError } from '../shared/errors';
import type { DueItem, SweepHandler } from '../sweeper/port';
import type { CreditIntakeQueue, IntakeDuePort } from './port';

/**
 * Pending credits never strand (docs/contract.md §24, §36): the sweeper's handler of `INTAKE_DUE`
 * markers. A marker falls due once its account's oldest pending credit is older than
 * `strandedAfterSeconds`; the sweep then reads the oldest pending credit itself: none (the
 * account was drained and the marker outlived it) → the marker goes; else the account is queued
 * on `credit-intake` again, its lag measured, and the marker falls due again when that credit is
 * `strandedAfterSeconds` old — which, for a credit already that old, is at once: the marker
 * stays due (1 ms after this sweep's instant, so not twice in one pass), and every later sweep,
 * however soon it runs, queues the account and measures its lag again while it stays stranded.
 * (Pushed back a whole period, a marker would miss each sweep that ran a little less than a
 * period after the last: the lag would have minutes without a datapoint and its alarm, which
 * wants one in each of 5 minutes, might never fire.) So a folder that failed (its messages
 * dead-lettered) heals without a new credit or an operator. Set-aside credits (§36) are not
 * pending: they never keep a marker.
 */
export interface IntakeSweep {
  readonly handler: SweepHandler;
  /**
   * Seconds since the acceptance of the oldest stranded credit the sweep found since the last
   * call (`CreditIntakeLagSeconds`, emitted by each sweep that found one, so it fires when the
   * folder never runs); undefined when no marker was due.
   */
  takeLag(): number | undefined;
}

/** The due kind of an `INTAKE_DUE` marker (functions/dynamodb/intake/due.ts). */
export const INTAKE_DUE_KIND = 'intake-due';

export function intakeSweep(
  markers: IntakeDuePort,
  queue: CreditIntakeQueue,
  strandedAfterSeconds: number,
): IntakeSweep {
  let lag: number | undefined;
  const handler: SweepHandler = {
    kind: INTAKE_DUE_KIND,
    async settle(item: DueItem, now: Date) {
      const accountId = String(item.attributes.accountId);
      const marks = Number(item.attributes.marks ?? 0);
      const oldest = await markers.oldestPendingAt(accountId);
      if (oldest === undefined) {
        await markers.clear(accountId, marks);
        return 'already_done';
      }
      const age = Math.max(0, (now.getTime() - Date.parse(oldest)) / 1000);
      lag = Math.max(lag ?? 0, age);
      const unsent = await queue.notify([accountId]);
      if (unsent.length > 0) {
        throw new UnavailableError(undefined, `account ${accountId}: credit-intake refused`);
      }
      const stranded = Date.parse(oldest) + strandedAfterSeconds * 1000;
      await markers.postpone(accountId, oldest, new Date(Math.max(now.getTime() + 1, stranded)));
      return 'settled';
    },
  };
  return {
    handler,
    takeLag() {
      const taken = lag;
      lag = undefined;
      return taken;
    },
  };
}
