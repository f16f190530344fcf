import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Construct } from 'constructs';
import { DEFAULT_EVENTS_BATCH_SIZE, DEFAULT_EVENTS_MAX_CONCURRENCY } from '../../config';
import { assertVisibilityCoversConsumer, EVENTS_CONSUMER_TIMEOUT } from '../../events-timing';
import {
  handlerEntry,
  LedgerFunction,
  type LedgerFunctionDefaults,
} from '../shared/ledger-function';
import { LEDGER_WRITER_TABLE_ACTIONS } from '../shared/ledger-table';
import type { LedgerEventQueuesRef } from './ledger-event-queues';

/** How long Lambda may gather records before invoking when nothing else is configured. */
const DEFAULT_EVENTS_MAX_BATCHING_WINDOW = Duration.seconds(1);

export interface LedgerEventsConsumerProps {
  /** Log group settings and test code shared by every function of the stack. */
  readonly functionDefaults?: LedgerFunctionDefaults;

  /**
   * The ledger table; the consumer gets {@link LEDGER_WRITER_TABLE_ACTIONS} on its ARN, the
   * HTTP function's set. Today it uses GetItem (sequence item) and PutItem / UpdateItem (the
   * items of its TransactWriteItems); ConditionCheckItem and Query serve guards and reads.
   */
  readonly table: dynamodb.ITable;

  /** The queue to consume and the DLQ to send poison messages to. */
  readonly queues: LedgerEventQueuesRef;

  /**
   * Environment besides `DLQ_URL` (which this construct sets to the DLQ's URL).
   * @default - none
   */
  readonly environment?: Readonly<Record<string, string>>;

  /**
   * Function timeout. The queue's visibility timeout must be at least 6 × this; synth fails
   * otherwise.
   * @default EVENTS_CONSUMER_TIMEOUT (30 s)
   */
  readonly timeout?: Duration;

  /**
   * Most records per invocation: 1–10, or up to 10,000 with a batching window (AWS limits).
   * @default DEFAULT_EVENTS_BATCH_SIZE (10)
   */
  readonly batchSize?: number;

  /**
   * Most concurrent invocations started by the event source, 2–1000 (AWS limits).
   * @default DEFAULT_EVENTS_MAX_CONCURRENCY (5)
   */
  readonly maxConcurrency?: number;

  /**
   * Longest wait to fill a batch, 0–300 s. Counts against the message's visibility timeout,
   * so keep it small next to the 6 × timeout headroom.
   * @default DEFAULT_EVENTS_MAX_BATCHING_WINDOW (1 s)
   */
  readonly maxBatchingWindow?: Duration;
}

/**
 * The `ledger-events` consumer (`functions/handlers/events/handler.ts`): a {@link LedgerFunction} fed by an SQS event source with partial
 * batch responses, allowed to consume the queue, send to the DLQ and write the ledger table.
 */
export class LedgerEventsConsumer extends Construct {
  readonly function: LedgerFunction;
  readonly eventSource: SqsEventSource;

  constructor(scope: Construct, id: string, props: LedgerEventsConsumerProps) {
    super(scope, id);
    const timeout = props.timeout ?? EVENTS_CONSUMER_TIMEOUT;
    assertVisibilityCoversConsumer(props.queues.visibilityTimeout, timeout);
    const { queue, deadLetterQueue } = props.queues;

    this.function = new LedgerFunction(this, 'Function', {
      ...props.functionDefaults,
      entry: handlerEntry('events'),
      description: 'idempotent-ledger ledger-events consumer (SQS, partial batch responses)',
      timeout,
      environment: { ...props.environment, DLQ_URL: deadLetterQueue.queueUrl },
    });

    // Grants the consume actions (Receive/Delete/ChangeMessageVisibility/GetQueueAttributes/
    // GetQueueUrl) on the main queue only.
    this.eventSource = new SqsEventSource(queue, {
      batchSize: props.batchSize ?? DEFAULT_EVENTS_BATCH_SIZE,
      maxConcurrency: props.maxConcurrency ?? DEFAULT_EVENTS_MAX_CONCURRENCY,
      maxBatchingWindow: props.maxBatchingWindow ?? DEFAULT_EVENTS_MAX_BATCHING_WINDOW,
      // Only the records that failed transiently come back; the rest are deleted.
      reportBatchItemFailures: true,
    });
    this.function.addEventSource(this.eventSource);

    // Poison messages go to the DLQ at once; nothing else may be done to it.
    this.function.allow('DeadLetterSend', ['sqs:SendMessage'], [deadLetterQueue.queueArn]);
    this.function.allow('LedgerTableItemAccess', LEDGER_WRITER_TABLE_ACTIONS, [
      props.table.tableArn,
    ]);
  }
}
