import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { ServiceConfig } from '../../functions/config';
import {
  createOutboxDispatcher,
  type DispatcherHandler,
} from '../../functions/dispatcher/dispatcher';
import type { Log } from '../../functions/observability/log';
import { createSqsExportJobs } from '../../functions/queue/export-jobs';
import { createOutboxStore } from '../../functions/store/outbox-store';

/**
 * The one place the local stack wires the real outbox dispatcher: the same handler the Lambda
 * runs (functions/dispatcher/handler.ts), sending to the local `export-jobs` queue.
 */
export function buildOutboxDispatcher(deps: {
  dynamoClient: DynamoDBClient;
  sqsClient: SQSClient;
  exportJobsUrl: string;
  config: ServiceConfig;
  log?: Log;
}): DispatcherHandler {
  return createOutboxDispatcher({
    jobs: createSqsExportJobs(deps.sqsClient, deps.exportJobsUrl),
    outbox: createOutboxStore({ client: deps.dynamoClient, tableName: deps.config.tableName }),
    ...(deps.log ? { log: deps.log } : {}),
  });
}
