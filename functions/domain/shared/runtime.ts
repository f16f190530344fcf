import type { Log } from './log';
import type { MetricsPort } from './metrics';

/**
 * What the parts of a function read besides their ports: the clock, where logs and metrics go,
 * and new ids. Each composition (functions/handlers/<name>/compose.ts) resolves the defaults
 * once (`resolveRuntime`); everything it builds takes them as given.
 */
export interface Runtime {
  readonly clock: () => Date;
  readonly log: Log;
  readonly metrics: MetricsPort;
  /** Ids of the resources and events a function creates. */
  readonly newId: () => string;
}
