import type { SQSClient } from '@aws-sdk/client-sqs';
import { queueUrl } from '../../../cli/sqs';
import { QUEUE_NAMES } from '../../../functions/contract/names';
import type { DeadLetterQueueRef } from './dead-letters';

/** Each dead-letter queue of the contract beside the queue its messages came from. */
export const DEAD_LETTER_PAIRS = [
  { dlq: QUEUE_NAMES.ledgerEventsDeadLetter, source: QUEUE_NAMES.ledgerEvents },
  { dlq: QUEUE_NAMES.exportJobsDeadLetter, source: QUEUE_NAMES.exportJobs },
  // `{ accountId }` messages the folder failed on 5 receives (docs/contract.md §24).
  { dlq: QUEUE_NAMES.creditIntakeDeadLetter, source: QUEUE_NAMES.creditIntake },
] as const;

/** The stage's dead-letter queues (names with `prefix`), their URLs looked up by name. */
export async function deadLetterQueueRefs(
  sqs: SQSClient,
  endpoint: string,
  prefix: string,
): Promise<DeadLetterQueueRef[]> {
  const refs: DeadLetterQueueRef[] = [];
  for (const pair of DEAD_LETTER_PAIRS) {
    const name = `${prefix}${pair.dlq}`;
    const target = `${prefix}${pair.source}`;
    refs.push({
      name,
      url: await queueUrl(sqs, endpoint, name),
      target: { name: target, url: await queueUrl(sqs, endpoint, target) },
    });
  }
  return refs;
}
