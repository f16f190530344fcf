import { S3Client } from '@aws-sdk/client-s3';
import type { Context, SQSEvent } from 'aws-lambda';
import { lambdaTelemetry } from '../../aws/telemetry';
import { SERVICE_NAMES } from '../../domain/shared/metrics';
import { createDynamoClient } from '../../dynamodb/table/client';
import { callbackSecretsFrom } from '../shared/composition';
import { loadConfig } from '../shared/config';
import { composeExportWorker } from './compose';
import { exportWorkerEnv } from './env';

// Built once per container; a missing variable fails the cold start loudly.
const config = loadConfig(process.env, exportWorkerEnv);
const telemetry = lambdaTelemetry(SERVICE_NAMES.exportWorker);

let invocationEndsAt = 0;

const consume = telemetry.instrument(
  composeExportWorker({
    config,
    dynamo: createDynamoClient(),
    s3: new S3Client({}),
    secrets: callbackSecretsFrom(config.callbackSecrets),
    timeLeftMs: () => invocationEndsAt - Date.now(),
    log: telemetry.log,
    metrics: telemetry.metrics,
  }),
);

/** `export-jobs` with ReportBatchItemFailures; one record at a time (batch size 1 in CDK). */
export const handler = (event: SQSEvent, context: Context) => {
  invocationEndsAt = Date.now() + context.getRemainingTimeInMillis();
  return consume(event, context);
};
