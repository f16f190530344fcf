import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { DEFAULT_EVENTS_BATCH_SIZE, DEFAULT_EVENTS_MAX_CONCURRENCY } from '../config';
import { assertVisibilityCoversConsumer, EVENTS_CONSUMER_TIMEOUT } from '../events-timing';
import type { LedgerEventQueuesRef } from './ledger-event-queues';
import { LedgerFunction } from './ledger-function';

/** How long Lambda may gather records before invoking when nothing else is configured. */
export const DEFAULT_EVENTS_MAX_BATCHING_WINDOW = Duration.seconds(1);

/**
 * DynamoDB actions of the events consumer on the ledger table: the same item-level set as the
 * HTTP function. Today the consumer uses GetItem (sequence item) and PutItem / UpdateItem, which
 * authorise the items of its TransactWriteItems; ConditionCheckItem and Query are allowed for
 * guards and reads by account. Deliberately absent: DeleteItem, Scan, BatchWriteItem, table
 * management.
 */
export const EVENTS_TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
] as const;

export interface LedgerEventsConsumerProps {
  /** TypeScript entry of the handler (`functions/events/handler.ts`), exporting `handler`. */
  readonly entry: string;

  /** The ledger table; the consumer gets {@link EVENTS_TABLE_ACTIONS} on its ARN. */
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

  /** What the function is for (shown in the console). @default - no description */
  readonly description?: string;

  /** Retention of the function's log group. @default logs.RetentionDays.ONE_MONTH */
  readonly logRetention?: logs.RetentionDays;

  /** What happens to the log group when it leaves the stack. @default RemovalPolicy.RETAIN */
  readonly logRemovalPolicy?: RemovalPolicy;

  /**
   * Pre-built code instead of bundling `entry`; for template-only infra tests.
   * @default - bundle `entry` with esbuild
   */
  readonly code?: lambda.Code;
}

/**
 * The `ledger-events` consumer: a {@link LedgerFunction} fed by an SQS event source with partial
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
      entry: props.entry,
      description: props.description,
      code: props.code,
      timeout,
      logRetention: props.logRetention,
      logRemovalPolicy: props.logRemovalPolicy,
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
    this.function.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'DeadLetterSend',
        actions: ['sqs:SendMessage'],
        resources: [deadLetterQueue.queueArn],
      }),
    );

    this.function.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'LedgerTableItemAccess',
        actions: [...EVENTS_TABLE_ACTIONS],
        resources: [props.table.tableArn],
      }),
    );
  }
}
