import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { holdExpiryHandler } from '../core/hold-expiry';
import { Sweeper, type SweepHandler, type SweepReport } from '../core/sweeper';
import { consoleLog, errorFields, type Log } from '../observability/log';
import { countRetry, METRICS, type MetricsPort, noMetrics } from '../observability/metrics';
import { DUE_SHARD_COUNT } from '../store/due-index';
import { createDueStore } from '../store/due-store';
import { toHoldRecord } from '../store/hold-items';
import { createHoldStore } from '../store/hold-store';

export interface SweeperDeps {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  readonly clock?: () => Date;
  readonly log?: Log;
  readonly metrics?: MetricsPort;
  /** Stop starting new pages after this long. @default unlimited */
  readonly budgetMs?: number;
}

/**
 * The registration point of the sweeper: one handler per due kind. Holds release here;
 * execution deadlines (the exports' timeouts) join with one more line.
 */
export function sweepHandlers(deps: SweeperDeps, metrics: MetricsPort): SweepHandler[] {
  const storage = {
    client: deps.client,
    tableName: deps.tableName,
    retry: { onRetry: countRetry(metrics) },
  };
  return [holdExpiryHandler(createHoldStore(storage), toHoldRecord)];
}

/** One sweep: what the scheduled Lambda runs each minute and `npm start` every few seconds. */
export type SweepRun = () => Promise<SweepReport>;

/** The sweeper's one composition, used by the Lambda handler, the local stack and the tests. */
export function composeSweeper(deps: SweeperDeps): SweepRun {
  const log = deps.log ?? consoleLog;
  const metrics = deps.metrics ?? noMetrics;
  const clock = deps.clock ?? (() => new Date());
  const sweeper = new Sweeper(
    createDueStore({ client: deps.client, tableName: deps.tableName }),
    sweepHandlers(deps, metrics),
    {
      shardCount: DUE_SHARD_COUNT,
      ...(deps.budgetMs === undefined ? {} : { budgetMs: deps.budgetMs }),
      onFailure: ({ kind, attributes, error }) =>
        log.error('sweep could not settle an item; it stays due', {
          kind,
          pk: attributes.pk,
          ...errorFields(error),
        }),
    },
  );
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
