import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { LOCAL_AWS } from '../../functions/contract/local-stack';
import { resolveStreamArn, type StreamBatchHandler, StreamPoller } from '../stream-poller';
import type { DynamoService } from './dynamodb/service';
import type { Lifecycle } from './lifecycle';

export interface StreamTriggerOptions {
  readonly dynamo: DynamoService;
  readonly tableName: string;
  /** The stream-triggered function, as local/functions.ts composes it. */
  readonly handler: StreamBatchHandler;
  /** Stream poller lines (one per batch). */
  readonly log: (line: string) => void;
}

export interface StreamTrigger {
  readonly streamArn: string;
}

/**
 * A table-stream-triggered function (the outbox dispatcher) behind a stream poller that behaves
 * like the Lambda DynamoDB Streams event source mapping (batches of up to 100,
 * ReportBatchItemFailures, retry until success).
 *
 * It reads every shard from TRIM_HORIZON. The stack's own DynamoDB Local is in memory and new,
 * so that is exactly "everything". With DYNAMODB_ENDPOINT it also replays the last 24 h of the
 * stream, so outbox items that were already delivered are sent to `export-jobs` again: that is
 * the at-least-once delivery of contract §8, and consumers dedup by `executionId`. LATEST would
 * lose the outbox items written while no stack was running, which is worse.
 */
export async function startStreamTrigger(
  lifecycle: Lifecycle,
  options: StreamTriggerOptions,
): Promise<StreamTrigger> {
  lifecycle.signal.throwIfAborted();
  const streamArn = await resolveStreamArn(
    options.dynamo.client,
    options.tableName,
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
    handler: options.handler,
    startingPosition: 'TRIM_HORIZON',
    log: options.log,
  });
  await poller.start();
  lifecycle.defer('stream poller', () => poller.stop());
  return { streamArn };
}
