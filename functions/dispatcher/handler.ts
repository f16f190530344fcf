import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import * as z from 'zod';
import { SERVICE_NAMES } from '../observability/metrics';
import { lambdaTelemetry } from '../observability/powertools';
import { createSqsExportJobs } from '../queue/export-jobs';
import { createOutboxStore } from '../store/outbox-store';
import { createOutboxDispatcher } from './dispatcher';

// Read once per container; a missing variable fails the cold start loudly.
const env = z
  .object({ TABLE_NAME: z.string().min(1), EXPORT_JOBS_QUEUE_URL: z.url() })
  .parse(process.env);
const telemetry = lambdaTelemetry(SERVICE_NAMES.dispatcher);

export const handler = telemetry.instrument(
  createOutboxDispatcher({
    jobs: createSqsExportJobs(new SQSClient({}), env.EXPORT_JOBS_QUEUE_URL),
    outbox: createOutboxStore({ client: new DynamoDBClient({}), tableName: env.TABLE_NAME }),
    log: telemetry.log,
    metrics: telemetry.metrics,
  }),
);
