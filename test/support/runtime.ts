import { randomUUID } from 'node:crypto';
import { silentLog } from '../../functions/domain/shared/log';
import { noMetrics } from '../../functions/domain/shared/metrics';
import type { Runtime } from '../../functions/domain/shared/runtime';

/**
 * The runtime a test gives the parts it builds without their composition: the real clock,
 * random ids, no logs and no metrics (spread it first, then what the test reads).
 */
export function quietRuntime(): Runtime {
  return { clock: () => new Date(), log: silentLog, metrics: noMetrics, newId: randomUUID };
}
