import { sleep } from '../../functions/core/retry';
import type { SweepRun } from '../../functions/sweeper/compose';
import type { Lifecycle } from './lifecycle';

export interface SweeperServiceOptions {
  /** One sweep, as local/functions.ts composes it. */
  readonly sweep: SweepRun;
  /** Pause between sweeps (SWEEP_INTERVAL_SECONDS). */
  readonly intervalSeconds: number;
}

/**
 * The sweeper of contract §11/§12, run every `intervalSeconds` inside `npm start` instead of the
 * scheduled Lambda: the same composition (functions/sweeper/compose.ts). A failed sweep is
 * logged by the composition and the loop goes on; what was due stays due.
 */
export function startSweeperService(lifecycle: Lifecycle, options: SweeperServiceOptions): void {
  const { signal } = lifecycle;
  const loop = (async () => {
    while (!signal.aborted) {
      await options.sweep().catch(() => {});
      await sleep(options.intervalSeconds * 1000, signal);
    }
  })();
  lifecycle.defer('sweeper', () => loop);
}
