import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { MAX_RECEIVE_COUNT } from '../../../functions/contract/names';

/** The longest retention SQS allows; an operator has two weeks to act on a dead letter. */
export const DEAD_LETTER_RETENTION = Duration.days(14);

/**
 * Retention of a main queue. Shorter than the DLQ's on purpose: SQS keeps a message's original
 * enqueue time when the redrive policy moves it, so a message near the end of its main-queue
 * life still gets at least ten days in the DLQ.
 */
const MAIN_QUEUE_RETENTION = Duration.days(4);

/**
 * House style for every queue: a standard queue with SQS-managed encryption (SSE-SQS, no KMS
 * permissions needed by producers or consumers) and a queue policy that denies non-TLS requests.
 */
export class SecureQueue extends sqs.Queue {
  constructor(
    scope: Construct,
    id: string,
    props: Omit<sqs.QueueProps, 'encryption' | 'encryptionMasterKey' | 'enforceSSL'>,
  ) {
    super(scope, id, { ...props, encryption: sqs.QueueEncryption.SQS_MANAGED, enforceSSL: true });
  }
}

/** A queue and its dead-letter queue, as a consumer or producer needs to know them. */
export interface QueueWithDeadLetterRef {
  /** The main queue. */
  readonly queue: sqs.IQueue;
  /** Where the redrive policy moves messages received too often (and where consumers may send). */
  readonly deadLetterQueue: sqs.IQueue;
  /** Visibility timeout of {@link queue}; consumers check their own timeout against it. */
  readonly visibilityTimeout: Duration;
  /** Receives of a message before the redrive policy moves it to {@link deadLetterQueue}. */
  readonly maxReceiveCount: number;
}

export interface QueueWithDeadLetterProps {
  /** Physical name of the main queue (SQS names are unique per account and region). */
  readonly queueName: string;

  /** Physical name of the dead-letter queue. */
  readonly deadLetterQueueName: string;

  /**
   * Visibility timeout of the main queue.
   * @default Duration.seconds(30) (the SQS default)
   */
  readonly visibilityTimeout?: Duration;

  /**
   * What happens to both queues (and the messages in them) when they leave the stack.
   * @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
}

/**
 * A {@link SecureQueue} redriven to its own {@link SecureQueue} DLQ after {@link MAX_RECEIVE_COUNT}
 * receives (docs/contract.md §6, §8). The DLQ keeps messages {@link DEAD_LETTER_RETENTION} and has no redrive of its own.
 * The children are `DeadLetterQueue` and `Queue`: subclasses keep these ids, so existing queues
 * (whose physical names are fixed) are never replaced.
 */
export class QueueWithDeadLetter extends Construct implements QueueWithDeadLetterRef {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
  readonly visibilityTimeout: Duration;
  readonly maxReceiveCount = MAX_RECEIVE_COUNT;

  constructor(scope: Construct, id: string, props: QueueWithDeadLetterProps) {
    super(scope, id);
    this.visibilityTimeout = props.visibilityTimeout ?? Duration.seconds(30);
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;

    this.deadLetterQueue = new SecureQueue(this, 'DeadLetterQueue', {
      queueName: props.deadLetterQueueName,
      retentionPeriod: DEAD_LETTER_RETENTION,
      removalPolicy,
    });

    this.queue = new SecureQueue(this, 'Queue', {
      queueName: props.queueName,
      retentionPeriod: MAIN_QUEUE_RETENTION,
      visibilityTimeout: this.visibilityTimeout,
      deadLetterQueue: {
        queue: this.deadLetterQueue,
        maxReceiveCount: this.maxReceiveCount,
      },
      removalPolicy,
    });
  }
}
