import { LOCAL_AWS } from '../../functions/contract/local-stack';
import { type SqsBatchHandler, startSqsPoller } from '../poller';
import type { QueueRef } from '../sqs';
import type { Lifecycle } from './lifecycle';
import type { SqsService } from './sqs';

export interface QueueTriggerOptions {
  readonly sqs: SqsService;
  readonly queue: QueueRef;
  /** The SQS-triggered function, as local/functions.ts composes it. */
  readonly handler: SqsBatchHandler;
  readonly visibilityTimeoutSeconds: number;
  /** Poller lines (one per batch). */
  readonly log: (line: string) => void;
}

/**
 * An SQS-triggered function behind a poller that behaves like the Lambda event source mapping
 * (batches of up to 10, ReportBatchItemFailures). Resolves once the poller has received from
 * the queue for the first time.
 */
export async function startQueueTrigger(
  lifecycle: Lifecycle,
  options: QueueTriggerOptions,
): Promise<void> {
  lifecycle.signal.throwIfAborted();
  const poller = await startSqsPoller({
    client: options.sqs.client,
    queueUrl: options.queue.url,
    queueArn: options.queue.arn,
    region: LOCAL_AWS.region,
    handler: options.handler,
    visibilityTimeoutSeconds: options.visibilityTimeoutSeconds,
    log: options.log,
  });
  lifecycle.defer(`SQS poller (${options.queue.name})`, () => poller.stop());
}
