import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import type { ExportJobQueue } from '../../domain/exports/port';
import { errorFields, type Log } from '../../domain/shared/log';
import { METRICS, type MetricsPort } from '../../domain/shared/metrics';
import type { OutboxMarks } from '../../dynamodb/exports/outbox-store';
import { decodeOutboxInsert } from '../../dynamodb/exports/outbox-stream';

export interface DispatcherDeps {
  readonly jobs: ExportJobQueue;
  readonly outbox: OutboxMarks;
  readonly clock: () => Date;
  readonly log: Log;
  readonly metrics: MetricsPort;
}

export type DispatcherHandler = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;

/**
 * The outbox dispatcher: every new outbox item on the table's stream goes to `export-jobs`,
 * then is marked dispatched. A failure reports that record, so the stream retries from it
 * (in order) instead of dropping it; a resend carries the same `executionId`.
 */
export function createOutboxDispatcher(deps: DispatcherDeps): DispatcherHandler {
  const { clock, log, metrics } = deps;
  return async (event) => {
    for (const record of event.Records) {
      const decoded = decodeOutboxInsert(record);
      if (decoded.kind === 'other') continue;
      if (decoded.kind === 'malformed') {
        // Written by our own transaction: a malformed item is a bug, not a retryable state.
        log.error('outbox item malformed; skipped', { pk: decoded.pk, issues: decoded.issues });
        continue;
      }
      const { job } = decoded;
      try {
        await deps.jobs.send(job);
        await deps.outbox.markDispatched(job.executionId, clock().toISOString());
        metrics.count(METRICS.exportJobDispatched);
        log.info('export job dispatched', {
          taskId: job.taskId,
          executionId: job.executionId,
        });
      } catch (error) {
        metrics.count(METRICS.exportJobDispatchFailure);
        log.error('export job dispatch failed; the stream will retry', {
          executionId: job.executionId,
          ...errorFields(error),
        });
        return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] };
      }
    }
    return { batchItemFailures: [] };
  };
}
