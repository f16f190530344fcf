import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { ServiceConfig } from '../../functions/config';
import type { EventsHandler } from '../../functions/events/consumer';
import { LOCAL_AWS } from '../dynamodb';
import { startSqsPoller } from '../poller';
import type { Lifecycle } from './lifecycle';
import { lineLog } from './line-log';
import type { SqsService } from './sqs';

export interface PollerServiceOptions {
  readonly sqs: SqsService;
  readonly dynamoClient: DynamoDBClient;
  readonly config: ServiceConfig;
  readonly visibilityTimeoutSeconds: number;
  /** Poller lines (one per batch). */
  readonly log: (line: string) => void;
  /** The consumer's structured log lines. */
  readonly eventsLog: (line: string) => void;
}

/**
 * The ledger-events consumer behind a poller that behaves like the Lambda event source
 * mapping (batches of up to 10, ReportBatchItemFailures). Resolves once the poller has
 * received from the queue for the first time.
 */
export async function startPollerService(
  lifecycle: Lifecycle,
  options: PollerServiceOptions,
): Promise<void> {
  const { sqs } = options;
  const handler = await loadHandler(options);
  lifecycle.signal.throwIfAborted();
  const poller = await startSqsPoller({
    client: sqs.client,
    queueUrl: sqs.queues.ledgerEvents.url,
    queueArn: sqs.queues.ledgerEvents.arn,
    region: LOCAL_AWS.region,
    handler,
    visibilityTimeoutSeconds: options.visibilityTimeoutSeconds,
    log: options.log,
  });
  lifecycle.defer('SQS poller', () => poller.stop());
}

/** Loaded lazily so a broken consumer is reported as a startup error and the stack cleans up. */
async function loadHandler(options: PollerServiceOptions): Promise<EventsHandler> {
  try {
    const { buildEventsHandler } = await import('./events-app');
    return buildEventsHandler({
      dynamoClient: options.dynamoClient,
      sqsClient: options.sqs.client,
      dlqUrl: options.sqs.queues.deadLetters.url,
      config: options.config,
      log: lineLog(options.eventsLog),
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `could not build the events consumer (local/services/events-app.ts): ${reason}`,
      { cause: error },
    );
  }
}
