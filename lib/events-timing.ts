import { Duration } from 'aws-cdk-lib';
import { EVENTS_CONSUMER_TIMEOUT_SECONDS } from '../functions/contract/events';
import { QUEUE_NAMES } from '../functions/contract/names';

/**
 * Lambda timeout of the `ledger-events` consumer. A batch's records of one account commit in
 * batched transactions, each with its own contention retries, all ending before the function's
 * time is up (docs/contract.md §20); 30 s leaves room for that without letting a stuck
 * invocation hold messages for long.
 * Both stacks read it: the consumer runs with it, the queue's visibility timeout derives from it.
 */
export const EVENTS_CONSUMER_TIMEOUT = Duration.seconds(EVENTS_CONSUMER_TIMEOUT_SECONDS);

/**
 * AWS guidance for SQS event sources: the queue's visibility timeout is at least six times the
 * function timeout, so Lambda can retry a throttled batch before its messages reappear.
 */
const VISIBILITY_TIMEOUT_FACTOR = 6;

/** Smallest visibility timeout allowed for a queue consumed by a function with `consumerTimeout`. */
export function minimumVisibilityTimeout(consumerTimeout: Duration): Duration {
  return Duration.seconds(consumerTimeout.toSeconds() * VISIBILITY_TIMEOUT_FACTOR);
}

/**
 * Fails the synth unless `visibilityTimeout` ≥ {@link VISIBILITY_TIMEOUT_FACTOR} × `consumerTimeout`.
 * Called on both sides: by the queue (stateful stack) and by the consumer (stateless stack), for
 * `ledger-events` and `credit-intake` alike.
 */
export function assertVisibilityCoversConsumer(
  visibilityTimeout: Duration,
  consumerTimeout: Duration,
  queueName: string = QUEUE_NAMES.ledgerEvents,
): void {
  const minimum = minimumVisibilityTimeout(consumerTimeout).toSeconds();
  const actual = visibilityTimeout.toSeconds();
  if (actual < minimum) {
    throw new Error(
      `${queueName} visibility timeout (${actual} s) must be at least ${VISIBILITY_TIMEOUT_FACTOR} × the consumer timeout (${consumerTimeout.toSeconds()} s) = ${minimum} s`,
    );
  }
}
