/**
 * Our side of the bench: the same compositions the Lambda handlers use
 * (functions/handlers/<name>/compose.ts), on a client that talks through the latency proxy. Logs
 * and metrics are silenced on both sides alike.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { HttpHandler } from '../../functions/api/types';
import { DEFAULT_BACKDATE_LIMIT_DAYS } from '../../functions/contract/effective-time';
import { DEFAULT_GAP_REFETCH_AFTER_SECONDS } from '../../functions/contract/gaps';
import { LOCAL_AWS } from '../../functions/contract/local-stack';
import { DEFAULT_INTAKE_SHARDS } from '../../functions/domain/accounts/model';
import { silentLog } from '../../functions/domain/shared/log';
import { composeEventsHandler } from '../../functions/handlers/events/compose';
import { composeHttpHandler } from '../../functions/handlers/http/compose';
import type { ServiceConfig } from '../../functions/handlers/shared/config';
import { staticCallbackSecrets } from '../../functions/schemas/exports/callbacks';

export function benchConfig(tableName: string, localCache = false): ServiceConfig {
  return {
    tableName,
    idempotencyLocalCache: localCache,
    idempotencyRetentionSeconds: 3600,
    inboxRetentionSeconds: 3600,
    exportFee: 100,
    callbackApplicationId: 'bench',
    exportExecutionTimeoutSeconds: 900,
    maxRerunsPerTask: 20,
    exportRetentionDays: 7,
    exportBucket: 'ledger-exports',
    backdateLimitDays: DEFAULT_BACKDATE_LIMIT_DAYS,
    intakeShards: DEFAULT_INTAKE_SHARDS,
  };
}

/** Our HTTP function; its settled-response cache only when `localCache` (replay targets count misses). */
export function createOurHttp(
  client: DynamoDBClient,
  tableName: string,
  localCache = false,
): HttpHandler {
  return composeHttpHandler({
    dynamo: client,
    config: benchConfig(tableName, localCache),
    callbackSecrets: staticCallbackSecrets('{}'),
    log: silentLog,
  });
}

/**
 * Our `ledger-events` consumer. Bench events are all valid, so nothing may be dead-lettered: the
 * dead-letter queue is a closed port, a send fails at once and the bench stops on the failed record.
 */
export function createOurConsumer(
  client: DynamoDBClient,
  tableName: string,
): (event: SQSEvent) => Promise<SQSBatchResponse> {
  return composeEventsHandler({
    dynamo: client,
    sqs: new SQSClient({ ...LOCAL_AWS, endpoint: 'http://127.0.0.1:9', maxAttempts: 1 }),
    config: {
      ...benchConfig(tableName),
      deadLetterQueueUrl: 'http://127.0.0.1:9/000000000000/ledger-events-dlq',
      gapRefetchAfterSeconds: DEFAULT_GAP_REFETCH_AFTER_SECONDS,
      backdateLimitDays: 90,
    },
    log: silentLog,
  });
}
