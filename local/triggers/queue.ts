import type { SQSClient } from '@aws-sdk/client-sqs';
import { LOCAL_AWS } from '../../functions/contract/local-stack';
import type { Lifecycle } from '../services/lifecycle';
import type { QueueRef } from '../services/sqs/queues';
import { type SqsBatchHandler, SqsPoller } from './sqs-poller';

export interface QueueTriggerOptions {
  readonly sqs: SQSClient;
  readonly queue: QueueRef;
  /** The SQS-triggered function, as local/functions.ts composes it. */
  readonly handler: SqsBatchHandler;
  readonly visibilityTimeoutSeconds: number;
  /** Messages per batch (the event source mapping's BatchSize). @default 10 */
  readonly batchSize?: number;
  /** Batches at once (the event source mapping's maximum concurrency). @default 1 */
  readonly maxConcurrency?: number;
  /** Poller lines (one per batch). */
  readonly log: (line: string) => void;
}

/**
 * An SQS-triggered function behind a poller that behaves like the Lambda event source mapping
 * (batches, ReportBatchItemFailures, several batches at once up to its maximum concurrency). Resolves once the poller has received from
 * the queue for the first time.
 */
export async function startQueueTrigger(
  lifecycle: Lifecycle,
  options: QueueTriggerOptions,
): Promise<void> {
  lifecycle.signal.throwIfAborted();
  const poller = new SqsPoller({
    client: options.sqs,
    queueUrl: options.queue.url,
    queueArn: options.queue.arn,
    region: LOCAL_AWS.region,
    handler: options.handler,
    visibilityTimeoutSeconds: options.visibilityTimeoutSeconds,
    ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }),
    ...(options.maxConcurrency === undefined ? {} : { maxConcurrency: options.maxConcurrency }),
    log: options.log,
  });
  await poller.start();
  lifecycle.defer(`SQS poller (${options.queue.name})`, () => poller.stop());
}
