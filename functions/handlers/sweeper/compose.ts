import { executionDeadlineHandler } from '../../domain/exports/deadline';
import { holdExpiryHandler } from '../../domain/holds/expiry';
import { errorFields } from '../../domain/shared/log';
import { METRICS } from '../../domain/shared/metrics';
import type { SweepHandler } from '../../domain/sweeper/port';
import { Sweeper, type SweepReport } from '../../domain/sweeper/service';
import { createExecutionDeadlineStore } from '../../dynamodb/exports/deadline-store';
import { toHoldRecord } from '../../dynamodb/holds/items';
import { createHoldStore } from '../../dynamodb/holds/store';
import { createDueStore } from '../../dynamodb/sweeper/store';
import { DUE_SHARD_COUNT } from '../../dynamodb/table/due-index';
import type { StoreOptions } from '../../dynamodb/table/transact';
import { resolveRuntime, type TableComposition, tableOptions } from '../shared/composition';
import type { ServiceConfig } from '../shared/config';

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
  const { clock, log, metrics } = resolveRuntime(options);
  const table = tableOptions(options, metrics);
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
