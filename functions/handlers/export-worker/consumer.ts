import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { EXPORT_JOBS_MAX_RECEIVE_COUNT } from '../../contract/exports';
import type { ExportWorker } from '../../domain/exports/worker';
import { errorFields, type Log } from '../../domain/shared/log';
import { METRICS, type MetricsPort } from '../../domain/shared/metrics';
import { ExportJobSchema } from '../../schemas/exports/jobs';

export interface ExportJobsConsumerDeps {
  readonly worker: ExportWorker;
  /** What is left of the invocation for the next record (Lambda: its remaining time). */
  readonly timeLeftMs: () => number;
  readonly log: Log;
  readonly metrics: MetricsPort;
}

export type ExportJobsHandler = (event: SQSEvent) => Promise<SQSBatchResponse>;

/** Kept back from the time left: the lease ends before the invocation does. */
export const LEASE_MARGIN_MS = 5_000;
/** Kept back from the lease: the run's own timer leaves this long to report FAILED. */
export const FAILED_REPORT_RESERVE_MS = 15_000;
const SHORTEST_RUN_MS = 1_000;

/**
 * A run's lease and its own timer from the time left: with the worker's 120 s, the lease lasts
 * 115 s and the run gives up after 100 s, so FAILED goes out before Lambda stops the run.
 */
export function runBudget(timeLeftMs: number): { leaseMs: number; giveUpMs: number } {
  const leaseMs = Math.max(SHORTEST_RUN_MS, timeLeftMs - LEASE_MARGIN_MS);
  return { leaseMs, giveUpMs: Math.max(SHORTEST_RUN_MS, leaseMs - FAILED_REPORT_RESERVE_MS) };
}

/**
 * The `export-jobs` consumer (ReportBatchItemFailures). Records run one after another, so a
 * batch never holds two exports in memory. A record is done when its export succeeded, timed out
 * meanwhile (a callback answered stale) or needs nothing (a duplicate, overdue or leased job);
 * a failure is reported for redelivery,
 * and on the last receive the worker reports FAILED first, so the task becomes rerunnable at
 * once while the message goes to the DLQ for an operator.
 */
export function createExportJobsConsumer(deps: ExportJobsConsumerDeps): ExportJobsHandler {
  const { log, metrics } = deps;

  async function processRecord(record: SQSRecord): Promise<'done' | 'retry'> {
    const fields: Record<string, unknown> = { messageId: record.messageId };
    const parsed = ExportJobSchema.safeParse(safeJson(record.body));
    if (!parsed.success) {
      // Only the outbox writes this queue: a malformed job is a bug, left for the DLQ.
      log.error('export job malformed; left for the DLQ', fields);
      metrics.count(METRICS.exportFailed);
      return 'retry';
    }
    const job = parsed.data;
    Object.assign(fields, { taskId: job.taskId, executionId: job.executionId });
    const receives = Number(record.attributes.ApproximateReceiveCount) || 1;
    try {
      const outcome = await deps.worker.run(job, {
        ...runBudget(deps.timeLeftMs()),
        finalAttempt: receives >= EXPORT_JOBS_MAX_RECEIVE_COUNT,
      });
      if (outcome.kind === 'succeeded') {
        metrics.count(METRICS.exportSucceeded);
        log.info('export succeeded', { ...fields, ...outcome.result, outcome: outcome.outcome });
      } else if (outcome.kind === 'timed_out') {
        // A callback answered stale: the execution passed its deadline while this run worked.
        metrics.count(METRICS.exportTimedOut);
        const { reported, key, objectDeleted } = outcome;
        log.warn('export timed out; no object kept', { ...fields, reported, key, objectDeleted });
      } else {
        const { reason } = outcome;
        metrics.count(METRICS.exportSkipped, 1, { name: 'reason', value: reason });
        log.info('export job skipped', { ...fields, reason });
      }
      return 'done';
    } catch (error) {
      metrics.count(METRICS.exportFailed);
      log.error('export failed; will be redelivered', {
        ...fields,
        receives,
        ...errorFields(error),
      });
      return 'retry';
    }
  }

  return async (event) => {
    const failures: string[] = [];
    for (const record of event.Records) {
      if ((await processRecord(record)) === 'retry') failures.push(record.messageId);
    }
    return { batchItemFailures: failures.map((itemIdentifier) => ({ itemIdentifier })) };
  };
}

function safeJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}
