import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import * as z from 'zod';
import { EXPORT_FORMATS } from '../core/tasks';
import { consoleLog, errorFields, type Log } from '../observability/log';
import { METRICS, type MetricsPort, noMetrics } from '../observability/metrics';
import type { ExportJobQueue } from '../queue/export-jobs';
import type { OutboxMarks } from '../store/outbox-store';

const ExportJobSchema = z.object({
  taskId: z.uuid(),
  executionId: z.uuid(),
  accountId: z.uuid(),
  format: z.enum(EXPORT_FORMATS),
  callbackPath: z.string().startsWith('/v1/callbacks/'),
});

export interface DispatcherDeps {
  readonly jobs: ExportJobQueue;
  readonly outbox: OutboxMarks;
  readonly clock?: () => Date;
  readonly log?: Log;
  readonly metrics?: MetricsPort;
}

export type DispatcherHandler = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;

/**
 * The outbox dispatcher: every new outbox item on the table's stream goes to `export-jobs`,
 * then is marked dispatched. A failure reports that record, so the stream retries from it
 * (in order) instead of dropping it; a resend carries the same `executionId`.
 */
export function createOutboxDispatcher(deps: DispatcherDeps): DispatcherHandler {
  const clock = deps.clock ?? (() => new Date());
  const log = deps.log ?? consoleLog;
  const metrics = deps.metrics ?? noMetrics;
  return async (event) => {
    for (const record of event.Records) {
      const image = record.dynamodb?.NewImage;
      if (record.eventName !== 'INSERT' || !image) continue;
      // aws-lambda's stream AttributeValue mirrors the SDK's; the SDK type is what unmarshall takes.
      const item = unmarshall(image as Record<string, AttributeValue>);
      if (item.kind !== 'outbox') continue;
      const job = ExportJobSchema.safeParse(item.job);
      if (!job.success) {
        // Written by our own transaction: a malformed item is a bug, not a retryable state.
        log.error('outbox item malformed; skipped', {
          pk: item.pk,
          issues: job.error.issues.length,
        });
        continue;
      }
      try {
        await deps.jobs.send(job.data);
        await deps.outbox.markDispatched(job.data.executionId, clock().toISOString());
        metrics.count(METRICS.exportJobDispatched);
        log.info('export job dispatched', {
          taskId: job.data.taskId,
          executionId: job.data.executionId,
        });
      } catch (error) {
        metrics.count(METRICS.exportJobDispatchFailure);
        log.error('export job dispatch failed; the stream will retry', {
          executionId: job.data.executionId,
          ...errorFields(error),
        });
        return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] };
      }
    }
    return { batchItemFailures: [] };
  };
}
