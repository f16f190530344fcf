import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { GapTopicRef } from './constructs/events/gap-topic';
import type { LedgerEventQueuesRef } from './constructs/events/ledger-event-queues';
import type { JournalTopicRef } from './constructs/journal/journal-topic';
import type { QueueWithDeadLetterRef } from './constructs/shared/queue-with-dead-letter';
import type { WebhookResourcesRef } from './constructs/webhooks/webhook-resources';

/** What the stateless stack uses of the stateful one; a `StatefulStack` is one. */
export interface StatefulResources {
  /** The ledger table. */
  readonly table: dynamodb.ITable;

  /** `ledger-events` and its DLQ. */
  readonly eventQueues: LedgerEventQueuesRef;

  /** `export-jobs` and its DLQ. */
  readonly exportJobQueues: QueueWithDeadLetterRef;

  /** On-failure destination of the outbox dispatcher. */
  readonly outboxDispatchDeadLetterQueue: sqs.IQueue;

  /** `credit-intake` and its DLQ (docs/contract.md §24): the folder's feed. */
  readonly creditIntakeQueues: QueueWithDeadLetterRef;

  /** `search-index` and its DLQ (docs/contract.md §34): the search indexer's feed. */
  readonly searchIndexQueues: QueueWithDeadLetterRef;

  /** Callback signing secrets (`CALLBACK_SECRETS_ARN`). */
  readonly callbackSecret: secretsmanager.ISecret;

  /** The journal topic and its key (docs/contract.md §15). */
  readonly journalTopic: JournalTopicRef;

  /** The gap topic and its key (docs/contract.md §18): the sweeper publishes re-fetch requests. */
  readonly gapTopic: GapTopicRef;

  /**
   * Name of the export files' bucket (`exportBucketName`): named, not referenced, so the grants
   * on its `exports/` prefix are one fixed ARN.
   */
  readonly exportBucketName: string;

  /** Webhooks' delivery queue, its DLQ and the sealing key (docs/contract.md §32). */
  readonly webhooks: WebhookResourcesRef;
}
