import type { S3Client } from '@aws-sdk/client-s3';
import { createS3ObjectSink } from '../../aws/s3-object-sink';
import type { CallbackSecrets } from '../../domain/callbacks/port';
import { ExportWorker } from '../../domain/exports/worker';
import { createExportRunStore } from '../../dynamodb/exports/run-store';
import { resolveRuntime, type TableComposition, tableOptions } from '../shared/composition';
import type { ExportWorkerConfig } from '../shared/config';
import { createCallbackReporter } from './callback-reporter';
import { createExportJobsConsumer, type ExportJobsHandler } from './consumer';

export interface ExportWorkerComposition extends TableComposition<ExportWorkerConfig> {
  readonly s3: S3Client;
  /** The export application's signing secrets (from `config.callbackSecrets`). */
  readonly secrets: CallbackSecrets;
  /** What is left of the invocation for the next record (Lambda: its remaining time). */
  readonly timeLeftMs: () => number;
  readonly fetch?: typeof fetch;
  readonly progressIntervalMs?: number;
  /** Entries per Query page. */
  readonly pageSize?: number;
}

/**
 * The export worker's one composition (docs/contract.md §12): the run lease and entry pages on
 * DynamoDB, the streamed object in `config.exportBucket`, progress through the signed callback
 * endpoint at `config.apiUrl`. The Lambda handler, `npm start` and the tests all build it here.
 */
export function composeExportWorker(options: ExportWorkerComposition): ExportJobsHandler {
  const { config } = options;
  const { clock, log, metrics, newId } = resolveRuntime(options);
  const table = tableOptions(options, metrics);
  const worker = new ExportWorker({
    runs: createExportRunStore({
      client: table.client,
      tableName: table.tableName,
      pageSize: options.pageSize,
    }),
    objects: createS3ObjectSink({ client: options.s3, bucket: config.exportBucket }),
    reporter: createCallbackReporter({
      apiUrl: config.apiUrl,
      secrets: options.secrets,
      fetch: options.fetch,
      clock,
      newId,
    }),
    progressIntervalMs: options.progressIntervalMs,
    clock,
    log,
  });
  return createExportJobsConsumer({
    worker,
    timeLeftMs: options.timeLeftMs,
    log,
    metrics,
  });
}
