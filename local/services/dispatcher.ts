import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import type { ServiceConfig } from '../../functions/config';
import type { DispatcherHandler } from '../../functions/dispatcher/dispatcher';
import { LOCAL_AWS } from '../dynamodb';
import { resolveStreamArn, StreamPoller } from '../stream-poller';
import type { DynamoService } from './dynamodb';
import type { Lifecycle } from './lifecycle';
import { lineLog } from './line-log';
import type { SqsService } from './sqs';

export interface DispatcherServiceOptions {
  readonly dynamo: DynamoService;
  readonly sqs: SqsService;
  readonly config: ServiceConfig;
  /** Stream poller lines (one per batch). */
  readonly log: (line: string) => void;
  /** The dispatcher's structured log lines. */
  readonly outboxLog: (line: string) => void;
}

export interface DispatcherService {
  readonly streamArn: string;
}

/**
 * The outbox dispatcher behind a stream poller that behaves like the Lambda DynamoDB Streams
 * event source mapping (batches of up to 100, ReportBatchItemFailures, retry until success).
 *
 * It reads every shard from TRIM_HORIZON. The stack's own DynamoDB Local is in memory and new,
 * so that is exactly "everything". With DYNAMODB_ENDPOINT it also replays the last 24 h of the
 * stream, so outbox items that were already delivered are sent to `export-jobs` again: that is
 * the at-least-once delivery of contract §8, and consumers dedup by `executionId`. LATEST would
 * lose the outbox items written while no stack was running, which is worse.
 */
export async function startDispatcherService(
  lifecycle: Lifecycle,
  options: DispatcherServiceOptions,
): Promise<DispatcherService> {
  const handler = await loadHandler(options);
  lifecycle.signal.throwIfAborted();
  const streamArn = await resolveStreamArn(
    options.dynamo.client,
    options.config.tableName,
    lifecycle.signal,
  );
  const client = new DynamoDBStreamsClient({
    ...LOCAL_AWS,
    endpoint: options.dynamo.endpoint,
    maxAttempts: 3,
  });
  lifecycle.defer('DynamoDB Streams client', () => client.destroy());
  const poller = new StreamPoller({
    client,
    streamArn,
    region: LOCAL_AWS.region,
    handler,
    startingPosition: 'TRIM_HORIZON',
    log: options.log,
  });
  await poller.start();
  lifecycle.defer('stream poller', () => poller.stop());
  return { streamArn };
}

/** Loaded lazily so a broken dispatcher is reported as a startup error and the stack cleans up. */
async function loadHandler(options: DispatcherServiceOptions): Promise<DispatcherHandler> {
  try {
    const { buildOutboxDispatcher } = await import('./dispatcher-app');
    return buildOutboxDispatcher({
      dynamoClient: options.dynamo.client,
      sqsClient: options.sqs.client,
      exportJobsUrl: options.sqs.queues.exportJobs.url,
      config: options.config,
      log: lineLog(options.outboxLog),
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `could not build the outbox dispatcher (local/services/dispatcher-app.ts): ${reason}`,
      { cause: error },
    );
  }
}
