import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { MAX_RECEIVE_COUNT } from '../../contract/names';
import type { ExportWorker } from '../../domain/exports/worker';
import { errorFields, type Log } from '../../domain/shared/log';
import { METRICS, type MetricsPort } from '../../domain/shared/metrics';
import { ExportJobSchema } from '../../schemas/exports';

export interface ExportJobsConsumerDeps {
  readonly worker: ExportWorker;
  /** How long the run of the next record may hold its execution (Lambda: time left). */
  readonly leaseMs: () => number;
  readonly log: Log;
  readonly metrics: MetricsPort;
}

export type ExportJobsHandler = (event: SQSEvent) => Promise<SQSBatchResponse>;

/**
 * The `export-jobs` consumer (ReportBatchItemFailures). Records run one after another, so a
 * batch never holds two exports in memory. A record is done when its export succeeded or needs
 * nothing (a duplicate, overdue or already leased job); a failure is reported for redelivery,
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
        leaseMs: deps.leaseMs(),
        finalAttempt: receives >= MAX_RECEIVE_COUNT,
      });
      if (outcome.kind === 'succeeded') {
        metrics.count(METRICS.exportSucceeded);
        log.info('export succeeded', { ...fields, ...outcome.result, outcome: outcome.outcome });
      } else {
        const reason = outcome.kind === 'skipped' ? outcome.reason : outcome.kind;
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
