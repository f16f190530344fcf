import { describeError, type Log } from '../../functions/domain/shared/log';
import { sleep } from '../../functions/domain/shared/retry';
import type { SweepRun } from '../../functions/handlers/sweeper/compose';
import type { Lifecycle } from './lifecycle';

export interface SweeperServiceOptions {
  /** One sweep, built by the sweeper's composition (local/functions.ts). */
  readonly sweep: SweepRun;
  /** Pause between sweeps (SWEEP_INTERVAL_SECONDS). */
  readonly intervalSeconds: number;
  readonly log: Log;
}

/**
 * The sweeper of docs/contract.md §11/§12, run every `intervalSeconds` inside `npm start` where AWS
 * runs the scheduled Lambda. A failed sweep is logged and the loop goes on; what was due stays
 * due.
 */
export function startSweeperService(lifecycle: Lifecycle, options: SweeperServiceOptions): void {
  const { signal } = lifecycle;
  const loop = (async () => {
    while (!signal.aborted) {
      try {
        await options.sweep();
      } catch (error) {
        options.log.error('sweep failed; retrying after the interval', {
          error: describeError(error),
        });
      }
      await sleep(options.intervalSeconds * 1000, signal);
    }
  })();
  lifecycle.defer('sweeper', () => loop);
}
