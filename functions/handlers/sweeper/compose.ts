import type { SNSClient } from '@aws-sdk/client-sns';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { createSnsGapRequests } from '../../aws/sns-gap-requests';
import { createSqsCreditIntake } from '../../aws/sqs/credit-intake';
import { DEFAULT_INTAKE_STRANDED_AFTER_SECONDS } from '../../contract/intake';
import { journalEventSource } from '../../contract/journal';
import { executionDeadlineHandler } from '../../domain/exports/deadline';
import { type GapSweep, gapSweep } from '../../domain/gaps/service';
import { holdExpiryHandler } from '../../domain/holds/expiry';
import { type IntakeSweep, intakeSweep } from '../../domain/intake/sweep';
import { errorFields } from '../../domain/shared/log';
import { METRICS } from '../../domain/shared/metrics';
import type { SweepHandler } from '../../domain/sweeper/port';
import { Sweeper, type SweepReport } from '../../domain/sweeper/service';
import { createExecutionDeadlineStore } from '../../dynamodb/exports/deadline-store';
import { toGapRequest, toSourceRef } from '../../dynamodb/gaps/items';
import { createGapRequestStore } from '../../dynamodb/gaps/store';
import { toHoldRecord } from '../../dynamodb/holds/items';
import { createHoldStore } from '../../dynamodb/holds/store';
import { createIntakeDueStore } from '../../dynamodb/intake/due';
import { createDueStore } from '../../dynamodb/sweeper/store';
import { DUE_SHARD_COUNT } from '../../dynamodb/table/due-index';
import type { StoreOptions } from '../../dynamodb/table/transact';
import { resolveRuntime, type TableComposition, tableOptions } from '../shared/composition';
import type { SweeperConfig } from '../shared/config';

export interface SweeperComposition extends TableComposition<SweeperConfig> {
  /** Where re-fetch requests are published (`config.gapTopicArn`). */
  readonly sns: SNSClient;
  /** Where stranded deferred accounts are queued again (`config.creditIntakeQueueUrl`). */
  readonly sqs: SQSClient;
  /** Stop starting new pages after this long. @default unlimited */
  readonly budgetMs?: number;
}

/**
 * The registration point of the sweeper: one handler per due kind. Holds release here
 * (docs/contract.md §11); executions past their deadline time out (§12); gaps are requested
 * again and their requests published (§18); stranded deferred accounts are queued again (§36).
 */
export function sweepHandlers(
  table: StoreOptions,
  gaps: GapSweep,
  intake: IntakeSweep,
): SweepHandler[] {
  return [
    ...gaps.handlers,
    intake.handler,
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
  const { config } = options;
  const gaps = gapSweep(
    createGapRequestStore(table),
    createSnsGapRequests(options.sns, config.gapTopicArn),
    {
      refetchAfterSeconds: config.gapRefetchAfterSeconds,
      serviceSource: journalEventSource(config.stage),
      log,
      decodeSource: toSourceRef,
      decodeRequest: toGapRequest,
    },
  );
  const intake = intakeSweep(
    createIntakeDueStore(table),
    createSqsCreditIntake(options.sqs, config.creditIntakeQueueUrl),
    config.intakeStrandedAfterSeconds ?? DEFAULT_INTAKE_STRANDED_AFTER_SECONDS,
  );
  const sweeper = new Sweeper(createDueStore(table), sweepHandlers(table, gaps, intake), {
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
    // A gauge: each overdue source is re-counted every 180 s, so every alarm period sees it
    // (docs/alarms.md, docs/contract.md §30).
    metrics.count(METRICS.overdueGaps, gaps.takeOverdue());
    // The oldest stranded credit's age: present whenever a marker fell due, which a stranded
    // account's does on every run while it stays stranded (§31, §36; docs/alarms.md).
    const lag = intake.takeLag();
    if (lag !== undefined) metrics.seconds(METRICS.creditIntakeLag, lag);
    if (report.truncated) log.warn('sweep stopped at its time budget; the rest waits', {});
    return report;
  };
}
