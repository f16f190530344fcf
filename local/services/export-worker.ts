import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import type { ServiceConfig } from '../../functions/config';
import { fixedCallbackSecrets, type SecretMap } from '../../functions/secrets/callback-secrets';
import { composeExportWorker } from '../../functions/workers/export/compose';
import { LOCAL_AWS } from '../dynamodb';
import { startSqsPoller } from '../poller';
import type { Lifecycle } from './lifecycle';
import { lineLog } from './line-log';
import type { SqsService } from './sqs';

/**
 * How long a received job stays hidden, and so how long one run may hold its execution: like
 * the Lambda, whose queue hides a job longer than the function may run.
 */
export const EXPORT_JOB_VISIBILITY_SECONDS = 120;
const LEASE_MARGIN_MS = 5_000;

export interface ExportWorkerServiceOptions {
  readonly sqs: SqsService;
  readonly dynamoClient: DynamoDBClient;
  readonly s3: S3Client;
  readonly config: ServiceConfig;
  /** The local HTTP API: where the signed callbacks go. */
  readonly apiUrl: string;
  readonly callbackSecrets: SecretMap;
  /** Poller lines (one per batch). */
  readonly log: (line: string) => void;
  /** The worker's structured log lines. */
  readonly workerLog: (line: string) => void;
}

/**
 * The export worker of contract §12 inside `npm start`: the Lambda's composition
 * (functions/workers/export/compose.ts) behind a poller on `export-jobs`, one job per batch,
 * partial batch responses, redrive to `export-jobs-dlq` after 5 receives.
 */
export async function startExportWorkerService(
  lifecycle: Lifecycle,
  options: ExportWorkerServiceOptions,
): Promise<void> {
  const handler = composeExportWorker({
    dynamo: options.dynamoClient,
    tableName: options.config.tableName,
    s3: options.s3,
    bucket: options.config.exportBucket,
    apiUrl: options.apiUrl,
    secrets: fixedCallbackSecrets(options.callbackSecrets),
    leaseMs: () => EXPORT_JOB_VISIBILITY_SECONDS * 1000 - LEASE_MARGIN_MS,
    progressIntervalMs: 500,
    log: lineLog(options.workerLog),
  });
  lifecycle.signal.throwIfAborted();
  const { exportJobs } = options.sqs.queues;
  const poller = await startSqsPoller({
    client: options.sqs.client,
    queueUrl: exportJobs.url,
    queueArn: exportJobs.arn,
    region: LOCAL_AWS.region,
    handler,
    batchSize: 1,
    visibilityTimeoutSeconds: EXPORT_JOB_VISIBILITY_SECONDS,
    log: options.log,
  });
  lifecycle.defer('export worker', () => poller.stop());
}
