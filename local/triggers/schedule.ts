import { describeError, type Log } from '../../functions/domain/shared/log';
import { sleep } from '../../functions/domain/shared/retry';
import type { Lifecycle } from '../services/lifecycle';

export interface ScheduleTriggerOptions {
  /** What runs, in the stop line and the failure log: "sweeper". */
  readonly name: string;
  /** One run of the scheduled function, built by its composition (local/functions.ts). */
  readonly run: () => Promise<unknown>;
  /** Pause between runs (the sweeper's SWEEP_INTERVAL_SECONDS). */
  readonly intervalSeconds: number;
  readonly log: Log;
}

/**
 * A scheduled function (the sweeper of docs/contract.md §11/§12), run every `intervalSeconds`
 * inside `npm start` where AWS runs it on an EventBridge schedule. A failed run is logged and
 * the loop goes on; what was due stays due. Runs never overlap: the pause starts when a run ends.
 */
export function startScheduleTrigger(lifecycle: Lifecycle, options: ScheduleTriggerOptions): void {
  const { signal } = lifecycle;
  const loop = (async () => {
    while (!signal.aborted) {
      try {
        await options.run();
      } catch (error) {
        options.log.error(`${options.name} failed; retrying after the interval`, {
          error: describeError(error),
        });
      }
      await sleep(options.intervalSeconds * 1000, signal);
    }
  })();
  lifecycle.defer(options.name, () => loop);
}
