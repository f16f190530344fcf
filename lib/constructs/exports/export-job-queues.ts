import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import {
  EXPORT_JOBS_VISIBILITY_TIMEOUT_SECONDS,
  EXPORT_WORKER_TIMEOUT_SECONDS,
  exportVisibilityProblem,
} from '../../../functions/contract/exports';
import { QUEUE_NAMES } from '../../../functions/contract/names';
import {
  DEAD_LETTER_RETENTION,
  QueueWithDeadLetter,
  SecureQueue,
} from '../shared/queue-with-dead-letter';

/**
 * On-failure destination of the outbox dispatcher's stream event source. Not a contract name:
 * only this deployment and its operators use it.
 */
export const OUTBOX_DISPATCH_DEAD_LETTER_QUEUE_NAME = 'outbox-dispatch-dlq';

/**
 * Visibility timeout of `export-jobs`: the worker's timeout + 30 s (150 s), short enough that a
 * job failing on every receive gets all its receives, reports FAILED and reaches the DLQ before
 * its deadline (docs/contract.md §12; the export worker checks it against the deadline). A job
 * that reappears while a run still holds it is harmless: the worker dedups by `executionId`.
 */
const EXPORT_JOBS_VISIBILITY_TIMEOUT = Duration.seconds(EXPORT_JOBS_VISIBILITY_TIMEOUT_SECONDS);

/** Fails the synth unless a job stays hidden longer than a worker may run on it. */
function checkedVisibilityTimeout(visibilityTimeout: Duration): Duration {
  const problem = exportVisibilityProblem({
    workerTimeoutSeconds: EXPORT_WORKER_TIMEOUT_SECONDS,
    visibilityTimeoutSeconds: visibilityTimeout.toSeconds(),
  });
  if (problem) throw new Error(problem);
  return visibilityTimeout;
}

export interface ExportJobQueuesProps {
  /**
   * Prepended to both queue names, e.g. `prod-` gives `prod-export-jobs`.
   * @default '' (`export-jobs`, `export-jobs-dlq`)
   */
  readonly namePrefix?: string;

  /**
   * Visibility timeout of `export-jobs`; at least the worker's timeout + 30 s (synth fails
   * otherwise).
   * @default EXPORT_JOBS_VISIBILITY_TIMEOUT (the worker's 120 s + 30 s = 150 s)
   */
  readonly visibilityTimeout?: Duration;

  /**
   * What happens to both queues (and the messages in them) when they leave the stack.
   * @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
}

/**
 * The `export-jobs` queue (fed by the outbox dispatcher, consumed by the export worker) and its `export-jobs-dlq`: SQS-managed encryption, TLS only, redrive after
 * `MAX_RECEIVE_COUNT` receives.
 */
export class ExportJobQueues extends QueueWithDeadLetter {
  constructor(scope: Construct, id: string, props: ExportJobQueuesProps = {}) {
    const prefix = props.namePrefix ?? '';
    super(scope, id, {
      queueName: `${prefix}${QUEUE_NAMES.exportJobs}`,
      deadLetterQueueName: `${prefix}${QUEUE_NAMES.exportJobsDeadLetter}`,
      visibilityTimeout: checkedVisibilityTimeout(
        props.visibilityTimeout ?? EXPORT_JOBS_VISIBILITY_TIMEOUT,
      ),
      removalPolicy: props.removalPolicy,
    });
  }
}

export interface OutboxDispatchDeadLetterQueueProps {
  /**
   * Prepended to the queue name, e.g. `prod-` gives `prod-outbox-dispatch-dlq`.
   * @default ''
   */
  readonly namePrefix?: string;

  /**
   * What happens to the queue (and the failure records in it) when it leaves the stack.
   * @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
}

/**
 * `outbox-dispatch-dlq`: where Lambda records a stream batch the outbox dispatcher gave up on
 * (shard and sequence numbers, not the job itself; the outbox item stays in the table).
 */
export class OutboxDispatchDeadLetterQueue extends SecureQueue {
  constructor(scope: Construct, id: string, props: OutboxDispatchDeadLetterQueueProps = {}) {
    super(scope, id, {
      queueName: `${props.namePrefix ?? ''}${OUTBOX_DISPATCH_DEAD_LETTER_QUEUE_NAME}`,
      retentionPeriod: DEAD_LETTER_RETENTION,
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN,
    });
    // cdk-nag recognises a DLQ only through another queue's redrive policy; this one is the
    // dispatcher's on-failure destination (OnFailure of the stream event source mapping).
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is itself a dead-letter queue: the on-failure destination of the outbox dispatcher stream event source mapping. A DLQ of a DLQ would only move the problem; the queue keeps records 14 days and its own alarm fires on the first message.',
    });
  }
}
