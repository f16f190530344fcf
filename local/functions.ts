import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { HttpHandler } from '../functions/api/types';
import { createS3ResultObjects } from '../functions/aws/s3-result-objects';
import {
  EXPORT_JOBS_VISIBILITY_TIMEOUT_SECONDS,
  EXPORT_WORKER_TIMEOUT_SECONDS,
} from '../functions/contract/exports';
import { LOCAL_AWS } from '../functions/contract/local-stack';
import type { Log } from '../functions/domain/shared/log';
import { composeDispatcherHandler } from '../functions/handlers/dispatcher/compose';
import type { DispatcherHandler } from '../functions/handlers/dispatcher/dispatcher';
import { composeEventsHandler } from '../functions/handlers/events/compose';
import type { EventsHandler } from '../functions/handlers/events/consumer';
import { composeExportWorker } from '../functions/handlers/export-worker/compose';
import type { ExportJobsHandler } from '../functions/handlers/export-worker/consumer';
import { composeHttpHandler } from '../functions/handlers/http/compose';
import type { ServiceConfig } from '../functions/handlers/shared/config';
import { composeSweeper, type SweepRun } from '../functions/handlers/sweeper/compose';
import { fixedCallbackSecrets, type SecretMap } from '../functions/schemas/callbacks';
import type { LocalQueues } from './sqs';

/**
 * Every function of the stack, built by its own composition (functions/<name>/compose.ts) from
 * the local clients, as its Lambda handler builds it on AWS. Only where the configuration comes
 * from differs: queue URLs are the emulator's, secrets are the parsed CALLBACK_SECRETS.
 * A new function adds one builder here and starts its trigger in local/start.ts.
 */
export interface LocalResources {
  readonly config: ServiceConfig;
  readonly callbackSecrets: SecretMap;
  readonly dynamo: DynamoDBClient;
  readonly sqs: SQSClient;
  readonly queues: LocalQueues;
  /** S3 holding the export bucket (the emulator's, or S3_ENDPOINT). */
  readonly s3: S3Client;
  /** Its endpoint: result URLs are presigned path-style on it, so plain curl downloads them. */
  readonly s3Endpoint: string;
}

export function localHttpHandler(
  local: Pick<LocalResources, 'config' | 'callbackSecrets' | 'dynamo' | 's3Endpoint'>,
  log?: Log,
): HttpHandler {
  return composeHttpHandler({
    config: local.config,
    dynamo: local.dynamo,
    results: createS3ResultObjects({
      bucket: local.config.exportBucket,
      region: LOCAL_AWS.region,
      credentials: LOCAL_AWS.credentials,
      endpoint: local.s3Endpoint,
    }),
    callbackSecrets: fixedCallbackSecrets(local.callbackSecrets),
    log,
  });
}

/**
 * How long a received export job stays hidden locally: the same visibility timeout as on AWS
 * (docs/contract.md §12), so failed jobs come back, report FAILED and dead-letter on the same
 * schedule.
 */
export const EXPORT_JOB_VISIBILITY_SECONDS = EXPORT_JOBS_VISIBILITY_TIMEOUT_SECONDS;

/** The export worker (docs/contract.md §12), reporting to the local HTTP API at `apiUrl`. */
export function localExportWorkerHandler(
  local: LocalResources,
  apiUrl: string,
  log: Log,
): ExportJobsHandler {
  return composeExportWorker({
    config: { ...local.config, apiUrl, callbackSecrets: { document: local.callbackSecrets } },
    dynamo: local.dynamo,
    s3: local.s3,
    secrets: fixedCallbackSecrets(local.callbackSecrets),
    // Each job gets the Lambda's whole timeout, as a fresh invocation on AWS does.
    timeLeftMs: () => EXPORT_WORKER_TIMEOUT_SECONDS * 1000,
    progressIntervalMs: 500,
    log,
  });
}

export function localEventsHandler(local: LocalResources, log: Log): EventsHandler {
  return composeEventsHandler({
    config: { ...local.config, deadLetterQueueUrl: local.queues.deadLetters.url },
    dynamo: local.dynamo,
    sqs: local.sqs,
    log,
  });
}

export function localDispatcherHandler(local: LocalResources, log: Log): DispatcherHandler {
  return composeDispatcherHandler({
    config: { ...local.config, exportJobsQueueUrl: local.queues.exportJobs.url },
    dynamo: local.dynamo,
    sqs: local.sqs,
    log,
  });
}

/** One sweep of due holds and execution deadlines (docs/contract.md §11, §12). */
export function localSweeper(local: Pick<LocalResources, 'config' | 'dynamo'>, log: Log): SweepRun {
  return composeSweeper({ config: local.config, dynamo: local.dynamo, log });
}
