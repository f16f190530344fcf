import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Log } from '../../observability/log';
import type { MetricsPort } from '../../observability/metrics';
import type { CallbackSecrets } from '../../secrets/callback-secrets';
import { createExportRunStore } from '../../store/export-run-store';
import { createCallbackReporter } from './callback-reporter';
import { createExportJobsConsumer, type ExportJobsHandler } from './consumer';
import { ExportWorker } from './export-worker';
import { createS3ObjectSink } from './s3-object-sink';

export interface ExportWorkerCompositionDeps {
  readonly dynamo: DynamoDBClient;
  readonly tableName: string;
  readonly s3: S3Client;
  readonly bucket: string;
  /** Base URL of the HTTP API the signed callbacks go to. */
  readonly apiUrl: string;
  readonly secrets: CallbackSecrets;
  /** How long the run of the next record may hold its execution (Lambda: time left). */
  readonly leaseMs: () => number;
  readonly clock?: () => Date;
  readonly fetch?: typeof fetch;
  readonly progressIntervalMs?: number;
  readonly pageSize?: number;
  readonly log?: Log;
  readonly metrics?: MetricsPort;
}

/**
 * The export worker's one composition (docs/contract.md §12): the run lease and entry pages on
 * DynamoDB, the streamed object on S3, progress through the signed callback endpoint. The Lambda
 * handler, `npm start` and the tests all build it here.
 */
export function composeExportWorker(deps: ExportWorkerCompositionDeps): ExportJobsHandler {
  const optional = <K extends 'clock' | 'log'>(key: K) =>
    deps[key] === undefined ? {} : ({ [key]: deps[key] } as Pick<ExportWorkerCompositionDeps, K>);
  const worker = new ExportWorker({
    runs: createExportRunStore({
      client: deps.dynamo,
      tableName: deps.tableName,
      ...(deps.pageSize === undefined ? {} : { pageSize: deps.pageSize }),
    }),
    objects: createS3ObjectSink({ client: deps.s3, bucket: deps.bucket }),
    reporter: createCallbackReporter({
      apiUrl: deps.apiUrl,
      secrets: deps.secrets,
      ...(deps.fetch === undefined ? {} : { fetch: deps.fetch }),
      ...optional('clock'),
    }),
    ...(deps.progressIntervalMs === undefined
      ? {}
      : { progressIntervalMs: deps.progressIntervalMs }),
    ...optional('clock'),
    ...optional('log'),
  });
  return createExportJobsConsumer({
    worker,
    leaseMs: deps.leaseMs,
    ...optional('log'),
    ...(deps.metrics === undefined ? {} : { metrics: deps.metrics }),
  });
}
