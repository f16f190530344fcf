import { LOCAL_AWS } from '../../functions/contract/local-stack';
import type { TableStream } from '../services/dynamodb/service';
import type { Lifecycle } from '../services/lifecycle';
import { type StreamBatchHandler, StreamPoller, type StreamPollerOptions } from './stream-poller';

export interface StreamTriggerOptions {
  /** The function, in the stop line: "outbox dispatcher". */
  readonly name: string;
  /** The table's stream (the DynamoDB service resolves it). */
  readonly stream: TableStream;
  /** The stream-triggered function, as local/functions.ts composes it. */
  readonly handler: StreamBatchHandler;
  /** Stream poller lines (one per batch). */
  readonly log: (line: string) => void;
  /** Batch size, pauses and backoff of the poller. @default the poller's defaults */
  readonly tuning?: Pick<
    StreamPollerOptions,
    'batchSize' | 'idleDelayMs' | 'describeIntervalMs' | 'retryBackoffMs' | 'maxBackoffMs'
  >;
}

/**
 * A table-stream-triggered function behind its own stream poller, which behaves like the Lambda
 * DynamoDB Streams event source mapping (batches of up to 100, ReportBatchItemFailures, retry
 * until success). Each trigger keeps its own checkpoint per shard, so two consumers of the
 * stream never wait for each other. Resolves once every shard it can read is open.
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
): Promise<void> {
  lifecycle.signal.throwIfAborted();
  const poller = new StreamPoller({
    ...options.tuning,
    client: options.stream.client,
    streamArn: options.stream.arn,
    region: LOCAL_AWS.region,
    handler: options.handler,
    startingPosition: 'TRIM_HORIZON',
    log: options.log,
  });
  await poller.start();
  lifecycle.defer(`stream poller (${options.name})`, () => poller.stop());
}
