import type { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import {
  assertVisibilityCoversConsumer,
  EVENTS_CONSUMER_TIMEOUT,
  minimumVisibilityTimeout,
} from '../events-timing';
import {
  DEAD_LETTER_RETENTION,
  DEFAULT_MAX_RECEIVE_COUNT,
  MAIN_QUEUE_RETENTION,
  QueueWithDeadLetter,
  type QueueWithDeadLetterRef,
} from './queue-with-dead-letter';

/** Contract §1 queue names; a deployment prefixes them with its stage. */
export const EVENTS_QUEUE_NAME = 'ledger-events';
export const EVENTS_DEAD_LETTER_QUEUE_NAME = 'ledger-events-dlq';

/** Receives of one message before the redrive policy moves it to the DLQ (contract §6). */
export const EVENTS_MAX_RECEIVE_COUNT = DEFAULT_MAX_RECEIVE_COUNT;

/** The longest retention SQS allows; an operator has two weeks to act on a dead letter. */
export const EVENTS_DEAD_LETTER_RETENTION = DEAD_LETTER_RETENTION;

/**
 * Retention of the main queue. Shorter than the DLQ's on purpose: SQS keeps a message's original
 * enqueue time when the redrive policy moves it, so a message near the end of its main-queue
 * life still gets at least ten days in the DLQ.
 */
export const EVENTS_QUEUE_RETENTION = MAIN_QUEUE_RETENTION;

/**
 * What the consumer needs to know about the queues; {@link LedgerEventQueues} provides it.
 * `queue` is `ledger-events`, the consumer's event source; `deadLetterQueue` is
 * `ledger-events-dlq`, for poison messages (sent by the consumer) and exhausted redeliveries.
 */
export type LedgerEventQueuesRef = QueueWithDeadLetterRef;

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

/** Visibility timeout for `props`, checked against the consumer timeout before any queue exists. */
function checkedVisibilityTimeout(props: LedgerEventQueuesProps): Duration {
  const consumerTimeout = props.consumerTimeout ?? EVENTS_CONSUMER_TIMEOUT;
  const visibilityTimeout = props.visibilityTimeout ?? minimumVisibilityTimeout(consumerTimeout);
  assertVisibilityCoversConsumer(visibilityTimeout, consumerTimeout);
  return visibilityTimeout;
}

/**
 * The inbound ledger-events queue and its dead-letter queue: standard queues, SQS-managed
 * encryption, TLS-only access, redrive to the DLQ after {@link EVENTS_MAX_RECEIVE_COUNT} receives.
 */
export class LedgerEventQueues extends QueueWithDeadLetter implements LedgerEventQueuesRef {
  constructor(scope: Construct, id: string, props: LedgerEventQueuesProps = {}) {
    const prefix = props.namePrefix ?? '';
    super(scope, id, {
      queueName: `${prefix}${EVENTS_QUEUE_NAME}`,
      deadLetterQueueName: `${prefix}${EVENTS_DEAD_LETTER_QUEUE_NAME}`,
      visibilityTimeout: checkedVisibilityTimeout(props),
      maxReceiveCount: EVENTS_MAX_RECEIVE_COUNT,
      retentionPeriod: EVENTS_QUEUE_RETENTION,
      removalPolicy: props.removalPolicy,
    });
  }
}
