import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import {
  assertVisibilityCoversConsumer,
  EVENTS_CONSUMER_TIMEOUT,
  minimumVisibilityTimeout,
} from '../events-timing';

/** Contract §1 queue names; a deployment prefixes them with its stage. */
export const EVENTS_QUEUE_NAME = 'ledger-events';
export const EVENTS_DEAD_LETTER_QUEUE_NAME = 'ledger-events-dlq';

/** Receives of one message before the redrive policy moves it to the DLQ (contract §6). */
export const EVENTS_MAX_RECEIVE_COUNT = 5;

/** The longest retention SQS allows; an operator has two weeks to act on a dead letter. */
export const EVENTS_DEAD_LETTER_RETENTION = Duration.days(14);

/**
 * Retention of the main queue. Shorter than the DLQ's on purpose: SQS keeps a message's original
 * enqueue time when the redrive policy moves it, so a message near the end of its main-queue
 * life still gets at least ten days in the DLQ.
 */
export const EVENTS_QUEUE_RETENTION = Duration.days(4);

/** What the consumer needs to know about the queues; {@link LedgerEventQueues} provides it. */
export interface LedgerEventQueuesRef {
  /** `ledger-events`, the consumer's event source. */
  readonly queue: sqs.IQueue;
  /** `ledger-events-dlq`: poison messages (sent by the consumer) and exhausted redeliveries. */
  readonly deadLetterQueue: sqs.IQueue;
  /** Visibility timeout of {@link queue}; the consumer checks its own timeout against it. */
  readonly visibilityTimeout: Duration;
}

export interface LedgerEventQueuesProps {
  /**
   * Prepended to both queue names, e.g. `prod-` gives `prod-ledger-events`. SQS queue names are
   * unique per account and region, so stages that share an account need different prefixes.
   * @default '' (`ledger-events`, `ledger-events-dlq`)
   */
  readonly namePrefix?: string;

  /**
   * Timeout of the function that consumes the main queue.
   * @default EVENTS_CONSUMER_TIMEOUT (30 s)
   */
  readonly consumerTimeout?: Duration;

  /**
   * Visibility timeout of the main queue. Must be at least 6 × `consumerTimeout`; synth fails
   * otherwise.
   * @default 6 × consumerTimeout
   */
  readonly visibilityTimeout?: Duration;

  /**
   * What happens to both queues (and the messages in them) when they leave the stack.
   * @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
}

/**
 * The inbound ledger-events queue and its dead-letter queue: standard queues, SQS-managed
 * encryption, TLS-only access, redrive to the DLQ after {@link EVENTS_MAX_RECEIVE_COUNT} receives.
 */
export class LedgerEventQueues extends Construct implements LedgerEventQueuesRef {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
  readonly visibilityTimeout: Duration;

  constructor(scope: Construct, id: string, props: LedgerEventQueuesProps = {}) {
    super(scope, id);
    const prefix = props.namePrefix ?? '';
    const consumerTimeout = props.consumerTimeout ?? EVENTS_CONSUMER_TIMEOUT;
    this.visibilityTimeout = props.visibilityTimeout ?? minimumVisibilityTimeout(consumerTimeout);
    assertVisibilityCoversConsumer(this.visibilityTimeout, consumerTimeout);
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;

    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetterQueue', {
      queueName: `${prefix}${EVENTS_DEAD_LETTER_QUEUE_NAME}`,
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: EVENTS_DEAD_LETTER_RETENTION,
      removalPolicy,
    });

    this.queue = new sqs.Queue(this, 'Queue', {
      queueName: `${prefix}${EVENTS_QUEUE_NAME}`,
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: EVENTS_QUEUE_RETENTION,
      visibilityTimeout: this.visibilityTimeout,
      deadLetterQueue: {
        queue: this.deadLetterQueue,
        maxReceiveCount: EVENTS_MAX_RECEIVE_COUNT,
      },
      removalPolicy,
    });
  }
}
