import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import type { ServiceConfig } from '../config';
import { createS3ResultObjects } from '../objects/s3-result-objects';
import type { Log } from '../observability/log';
import { countRetry, type MetricsPort, noMetrics } from '../observability/metrics';
import type { CallbackSecrets } from '../secrets/callback-secrets';
import { createLedgerStore } from '../store/ledger-store';
import { createTaskStore } from '../store/task-store';
import type { RetryPolicy } from '../store/transact';
import { createHttpApp } from './app';
import type { HttpHandler } from './types';

export interface DynamoHttpAppOptions {
  readonly client: DynamoDBClient;
  /** S3 for export results (HEAD, presigned GETs in `config.exportBucket`). @default from env */
  readonly s3?: S3Client;
  readonly config: ServiceConfig;
  readonly callbackSecrets: CallbackSecrets;
  readonly clock?: () => Date;
  readonly newId?: () => string;
  readonly log?: Log;
  readonly metrics?: MetricsPort;
  readonly retry?: Partial<RetryPolicy>;
}

/** The HTTP app on its DynamoDB stores and the export bucket: one wiring for Lambda, the local stack and tests. */
export function createDynamoHttpApp(options: DynamoHttpAppOptions): HttpHandler {
  const metrics = options.metrics ?? noMetrics;
  const store = {
    client: options.client,
    tableName: options.config.tableName,
    retry: { onRetry: countRetry(metrics), ...options.retry },
  };
  const tasks = createTaskStore(store);
  return createHttpApp({
    ledger: createLedgerStore(store),
    tasks,
    callbacks: tasks,
    results: createS3ResultObjects({
      client: options.s3 ?? new S3Client({}),
      bucket: options.config.exportBucket,
    }),
    callbackSecrets: options.callbackSecrets,
    config: options.config,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.newId ? { newId: options.newId } : {}),
    ...(options.log ? { log: options.log } : {}),
    metrics,
  });
}
