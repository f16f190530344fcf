import type { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { QUEUE_NAMES } from '../../../functions/contract/names';
import {
  assertVisibilityCoversConsumer,
  EVENTS_CONSUMER_TIMEOUT,
  minimumVisibilityTimeout,
} from '../../events-timing';
import { QueueWithDeadLetter, type QueueWithDeadLetterRef } from '../shared/queue-with-dead-letter';

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
 * encryption, TLS-only access, redrive to the DLQ after `MAX_RECEIVE_COUNT` receives.
 */
export class LedgerEventQueues extends QueueWithDeadLetter implements LedgerEventQueuesRef {
  constructor(scope: Construct, id: string, props: LedgerEventQueuesProps = {}) {
    const prefix = props.namePrefix ?? '';
    super(scope, id, {
      queueName: `${prefix}${QUEUE_NAMES.ledgerEvents}`,
      deadLetterQueueName: `${prefix}${QUEUE_NAMES.ledgerEventsDeadLetter}`,
      visibilityTimeout: checkedVisibilityTimeout(props),
      removalPolicy: props.removalPolicy,
    });
  }
}
