import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { QUEUE_NAMES } from '../../../functions/contract/names';
import { minimumVisibilityTimeout } from '../../events-timing';
import { QueueWithDeadLetter } from '../shared/queue-with-dead-letter';

/**
 * Lambda timeout of the folder (`functions/handlers/credit-intake/`). A run posts an account's
 * pending credits in chunks of at most 30, each ONE transaction with contention retries, until
 * the invocation's deadline (the consumer derives it from the time left); what is left is queued
 * again. 30 s, as the events consumer. Both stacks read it: the folder runs with it, the queue's
 * visibility timeout derives from it.
 */
export const CREDIT_INTAKE_FOLDER_TIMEOUT = Duration.seconds(30);

export interface CreditIntakeQueuesProps {
  /**
   * Prepended to both queue names, e.g. `prod-` gives `prod-credit-intake`.
   * @default '' (`credit-intake`, `credit-intake-dlq`)
   */
  readonly namePrefix?: string;

  /**
   * What happens to both queues (and the messages in them) when they leave the stack.
   * @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
}

/**
 * `credit-intake` (docs/contract.md §24): one message `{ accountId }` per account with new
 * pending credits, sent by the outbox dispatcher and by the folder itself (an account its
 * deadline cut short), consumed by the folder; and `credit-intake-dlq`, where the messages of a
 * posting refused for good (the balance cap, a closed period) land after `MAX_RECEIVE_COUNT`
 * receives. SQS-managed encryption, TLS only; visibility 6 × the folder's timeout.
 */
export class CreditIntakeQueues extends QueueWithDeadLetter {
  constructor(scope: Construct, id: string, props: CreditIntakeQueuesProps = {}) {
    const prefix = props.namePrefix ?? '';
    super(scope, id, {
      queueName: `${prefix}${QUEUE_NAMES.creditIntake}`,
      deadLetterQueueName: `${prefix}${QUEUE_NAMES.creditIntakeDeadLetter}`,
      // The folder checks it against its timeout (lib/constructs/intake/credit-folder.ts).
      visibilityTimeout: minimumVisibilityTimeout(CREDIT_INTAKE_FOLDER_TIMEOUT),
      removalPolicy: props.removalPolicy,
    });
  }
}
