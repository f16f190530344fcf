import { type TableComposition, tableOptions } from '../composition';
import type { ServiceConfig } from '../config';
import { executionDeadlineHandler } from '../core/execution-deadline';
import { holdExpiryHandler } from '../core/hold-expiry';
import { Sweeper, type SweepHandler, type SweepReport } from '../core/sweeper';
import { consoleLog, errorFields } from '../observability/log';
import { METRICS, noMetrics } from '../observability/metrics';
import { DUE_SHARD_COUNT } from '../store/due-index';
import { createDueStore } from '../store/due-store';
import { createExecutionDeadlineStore } from '../store/execution-deadline-store';
import { toHoldRecord } from '../store/hold-items';
import { createHoldStore } from '../store/hold-store';
import type { StoreOptions } from '../store/transact';

export interface SweeperComposition extends TableComposition<ServiceConfig> {
  /** Stop starting new pages after this long. @default unlimited */
  readonly budgetMs?: number;
}

/**
 * The registration point of the sweeper: one handler per due kind. Holds release here
 * (docs/contract.md §11); executions past their deadline time out (§12).
 */
export function sweepHandlers(table: StoreOptions): SweepHandler[] {
  return [
    holdExpiryHandler(createHoldStore(table), toHoldRecord),
    executionDeadlineHandler(createExecutionDeadlineStore(table), (attributes) => ({
      taskId: String(attributes.taskId),
      id: String(attributes.id),
    })),
  ];
}

/** One sweep: what the scheduled Lambda runs each minute and `npm start` every few seconds. */
export type SweepRun = () => Promise<SweepReport>;

/** The sweeper's one composition, used by the Lambda handler, the local stack and the tests. */
export function composeSweeper(options: SweeperComposition): SweepRun {
  const log = options.log ?? consoleLog;
  const metrics = options.metrics ?? noMetrics;
  const clock = options.clock ?? (() => new Date());
  const table = tableOptions(options);
  const sweeper = new Sweeper(createDueStore(table), sweepHandlers(table), {
    shardCount: DUE_SHARD_COUNT,
    ...(options.budgetMs === undefined ? {} : { budgetMs: options.budgetMs }),
    onFailure: ({ kind, attributes, error }) =>
      log.error('sweep could not settle an item; it stays due', {
        kind,
        pk: attributes.pk,
        ...errorFields(error),
      }),
  });
  return async () => {
    const report = await sweeper.sweep(clock());
    for (const [kind, counts] of report.byKind) {
      const dimension = { name: 'kind', value: kind };
      metrics.count(METRICS.sweepSettled, counts.settled, dimension);
      metrics.count(METRICS.sweepAlreadyDone, counts.alreadyDone, dimension);
      metrics.count(METRICS.sweepFailure, counts.failed, dimension);
      metrics.seconds(METRICS.sweepOldestDueAge, counts.oldestDueAgeSeconds, dimension);
      if (counts.settled + counts.alreadyDone + counts.failed > 0) {
        log.info('sweep', { kind, ...counts });
      }
    }
    if (report.truncated) log.warn('sweep stopped at its time budget; the rest waits', {});
    return report;
  };
}
