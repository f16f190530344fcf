import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import type { Context, SQSEvent } from 'aws-lambda';
import { z } from 'zod';
import { loadConfig } from '../../config';
import { SERVICE_NAMES } from '../../observability/metrics';
import { lambdaTelemetry } from '../../observability/powertools';
import { secretsManagerCallbackSecrets } from '../../secrets/secrets-manager';
import { composeExportWorker } from './compose';

/** Kept back from the invocation's time left: the lease ends before Lambda stops the run. */
const LEASE_MARGIN_MS = 5_000;

// Built once per container; a missing variable fails the cold start loudly.
const config = loadConfig(process.env);
const env = z
  .object({
    API_URL: z.url({ error: 'API_URL must be the HTTP API base URL' }),
    CALLBACK_SECRETS_ARN: z.string().min(1, 'CALLBACK_SECRETS_ARN must name the secret'),
  })
  .parse(process.env);
const telemetry = lambdaTelemetry(SERVICE_NAMES.exportWorker);

let invocationEndsAt = 0;

const consume = telemetry.instrument(
  composeExportWorker({
    dynamo: new DynamoDBClient({}),
    tableName: config.tableName,
    s3: new S3Client({}),
    bucket: config.exportBucket,
    apiUrl: env.API_URL.replace(/\/$/, ''),
    secrets: secretsManagerCallbackSecrets(env.CALLBACK_SECRETS_ARN),
    leaseMs: () => Math.max(1_000, invocationEndsAt - Date.now() - LEASE_MARGIN_MS),
    log: telemetry.log,
    metrics: telemetry.metrics,
  }),
);

/** `export-jobs` with ReportBatchItemFailures; one record at a time (batch size 1 in CDK). */
export const handler = (event: SQSEvent, context: Context) => {
  invocationEndsAt = Date.now() + context.getRemainingTimeInMillis();
  return consume(event, context);
};
