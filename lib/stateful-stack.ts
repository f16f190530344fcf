import { CfnOutput, type Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { GapTopic } from './constructs/events/gap-topic';
import { LedgerEventQueues } from './constructs/events/ledger-event-queues';
import { ExportBucket, exportBucketName } from './constructs/exports/export-bucket';
import {
  ExportJobQueues,
  OutboxDispatchDeadLetterQueue,
} from './constructs/exports/export-job-queues';
import { CallbackSecrets } from './constructs/http/callback-secrets';
import { CreditIntakeQueues } from './constructs/intake/credit-intake-queues';
import { JournalTopic } from './constructs/journal/journal-topic';
import { SearchIndexQueues } from './constructs/search/search-index-queues';
import { LedgerTable } from './constructs/shared/ledger-table';
import { WebhookResources } from './constructs/webhooks/webhook-resources';

export interface StatefulStackProps extends StackProps {
  /**
   * DynamoDB deletion protection on the ledger table. Also the default of `removalPolicy`:
   * retained while protected, deleted otherwise (queue names are fixed, so a retained queue would
   * block redeploying a throwaway stage).
   * @default true
   */
  readonly deletionProtection?: boolean;

  /**
   * How many of the account directory's indexes the ledger table has (in their order); see
   * {@link LedgerTableProps.accountDirectoryIndexes}.
   * @default all (3)
   */
  readonly accountDirectoryIndexes?: number;

  /**
   * What happens to the queues and the callback secret when they leave the stack. The table is
   * always retained.
   * @default RETAIN with deletion protection, DESTROY without
   */
  readonly removalPolicy?: RemovalPolicy;

  /**
   * Prepended to every queue name (`<prefix>ledger-events`, `<prefix>export-jobs`, …) and the
   * export bucket's and the journal topic's names.
   * @default '' (no prefix)
   */
  readonly queueNamePrefix?: string;

  /**
   * Timeout of the function that consumes `ledger-events`; the queue's visibility timeout is
   * derived from it. Pass the same value to the stateless stack.
   * @default EVENTS_CONSUMER_TIMEOUT (30 s)
   */
  readonly eventsConsumerTimeout?: Duration;

  /**
   * Visibility timeout of `ledger-events`; at least 6 × `eventsConsumerTimeout` (synth fails
   * otherwise).
   * @default 6 × eventsConsumerTimeout
   */
  readonly eventsVisibilityTimeout?: Duration;

  /**
   * Application id under which the callback secret's generated initial value is stored.
   * @default DEFAULT_CALLBACK_APPLICATION_ID ('export-worker')
   */
  readonly callbackApplicationId?: string;

  /**
   * Days the export bucket keeps a file before its lifecycle rule deletes it.
   * @default DEFAULT_EXPORT_RETENTION_DAYS (7)
   */
  readonly exportRetentionDays?: number;
}

/**
 * Data resources that must outlive any deployment of the code: deployed rarely, retained on
 * delete: the table, every queue (credit-intake included), the journal topic, the export bucket and the callback secret.
 */
export class StatefulStack extends Stack {
  /** The single ledger table (pk/sk, TTL `expiresAt`, stream NEW_IMAGE). */
  readonly table: dynamodb.ITable;
  /** `ledger-events` and its DLQ. */
  readonly eventQueues: LedgerEventQueues;
  /** `export-jobs` and its DLQ (consumed by the export worker). */
  readonly exportJobQueues: ExportJobQueues;
  /** On-failure destination of the outbox dispatcher (`outbox-dispatch-dlq`). */
  readonly outboxDispatchDeadLetterQueue: OutboxDispatchDeadLetterQueue;
  /** `credit-intake` and its DLQ (docs/contract.md §24): fed by the dispatcher, consumed by the folder. */
  readonly creditIntakeQueues: CreditIntakeQueues;
  /** `search-index` and its DLQ (docs/contract.md §34): fed by the projector, consumed by the indexer. */
  readonly searchIndexQueues: SearchIndexQueues;
  /** Callback signing secrets, `{ "<applicationId>": ["<secret>", …] }`. */
  readonly callbackSecret: secretsmanager.ISecret;
  /** `ledger-journal` (docs/contract.md §15) and its key: the journal projector publishes there. */
  readonly journalTopic: JournalTopic;
  /** `ledger-gaps` (docs/contract.md §18) and its key: the sweeper publishes re-fetch requests. */
  readonly gapTopic: GapTopic;
  /** The export files (`exports/<taskId>/<executionId>.<csv|jsonl>`), expired after the retention. */
  readonly exportBucket: s3.IBucket;
  /**
   * The export bucket's name as both stacks derive it (pseudo parameters only, no reference to
   * this stack): what the stateless stack names the bucket by.
   */
  readonly exportBucketName: string;
  /** `webhook-deliveries` (on the journal topic), its DLQ, the secrets' sealing key (§32). */
  readonly webhooks: WebhookResources;

  constructor(scope: Construct, id: string, props: StatefulStackProps = {}) {
    super(scope, id, props);
    const deletionProtection = props.deletionProtection ?? true;
    const removalPolicy =
      props.removalPolicy ?? (deletionProtection ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY);

    const ledgerTable = new LedgerTable(this, 'Ledger', {
      deletionProtection,
      accountDirectoryIndexes: props.accountDirectoryIndexes,
    });
    this.table = ledgerTable.table;

    this.eventQueues = new LedgerEventQueues(this, 'LedgerEvents', {
      namePrefix: props.queueNamePrefix,
      consumerTimeout: props.eventsConsumerTimeout,
      visibilityTimeout: props.eventsVisibilityTimeout,
      removalPolicy,
    });

    this.exportJobQueues = new ExportJobQueues(this, 'ExportJobs', {
      namePrefix: props.queueNamePrefix,
      removalPolicy,
    });

    this.outboxDispatchDeadLetterQueue = new OutboxDispatchDeadLetterQueue(
      this,
      'OutboxDispatchDeadLetterQueue',
      { namePrefix: props.queueNamePrefix, removalPolicy },
    );

    this.creditIntakeQueues = new CreditIntakeQueues(this, 'CreditIntake', {
      namePrefix: props.queueNamePrefix,
      removalPolicy,
    });

    this.searchIndexQueues = new SearchIndexQueues(this, 'SearchIndex', {
      namePrefix: props.queueNamePrefix,
      removalPolicy,
    });

    this.journalTopic = new JournalTopic(this, 'Journal', {
      namePrefix: props.queueNamePrefix,
      removalPolicy,
    });

    this.gapTopic = new GapTopic(this, 'Gaps', {
      namePrefix: props.queueNamePrefix,
      removalPolicy,
    });

    this.webhooks = new WebhookResources(this, 'Webhooks', {
      journalTopic: this.journalTopic.topic,
      namePrefix: props.queueNamePrefix,
      removalPolicy,
    });

    this.callbackSecret = new CallbackSecrets(this, 'CallbackSecrets', {
      applicationId: props.callbackApplicationId,
      removalPolicy,
    }).secret;

    this.exportBucketName = exportBucketName(props.queueNamePrefix ?? '');
    this.exportBucket = new ExportBucket(this, 'Exports', {
      namePrefix: props.queueNamePrefix,
      retentionDays: props.exportRetentionDays,
      removalPolicy,
    }).bucket;

    new CfnOutput(this, 'TableName', {
      description: 'Name of the ledger DynamoDB table',
      value: this.table.tableName,
    });
    new CfnOutput(this, 'EventsQueueUrl', {
      description: 'URL of the ledger-events SQS queue (producers send CloudEvents here)',
      value: this.eventQueues.queue.queueUrl,
    });
    new CfnOutput(this, 'EventsDeadLetterQueueUrl', {
      description: 'URL of the ledger-events-dlq SQS queue (dead-lettered ledger events)',
      value: this.eventQueues.deadLetterQueue.queueUrl,
    });
    new CfnOutput(this, 'ExportJobsQueueUrl', {
      description: 'URL of the export-jobs SQS queue (export workers consume jobs here)',
      value: this.exportJobQueues.queue.queueUrl,
    });
    new CfnOutput(this, 'ExportJobsDeadLetterQueueUrl', {
      description: 'URL of the export-jobs-dlq SQS queue (jobs that failed 5 receives)',
      value: this.exportJobQueues.deadLetterQueue.queueUrl,
    });
    new CfnOutput(this, 'OutboxDispatchDeadLetterQueueUrl', {
      description:
        'URL of the outbox-dispatch-dlq SQS queue (stream batches the dispatcher gave up on)',
      value: this.outboxDispatchDeadLetterQueue.queueUrl,
    });
    new CfnOutput(this, 'CreditIntakeDeadLetterQueueUrl', {
      description:
        'URL of the credit-intake-dlq SQS queue (accounts whose pending credits the folder could not post in 5 receives)',
      value: this.creditIntakeQueues.deadLetterQueue.queueUrl,
    });
    new CfnOutput(this, 'JournalTopicArn', {
      description:
        'ARN of the ledger-journal SNS topic (ledger.journal.v1 events, one per journal record; subscribe with raw message delivery)',
      value: this.journalTopic.topic.topicArn,
    });
    new CfnOutput(this, 'GapTopicArn', {
      description:
        'ARN of the ledger-gaps SNS topic (ledger.gap.refetch.v1 requests; message attribute source = the producer; subscribe with raw message delivery and a filter policy)',
      value: this.gapTopic.topic.topicArn,
    });
    new CfnOutput(this, 'ExportBucketName', {
      description: 'Name of the S3 bucket holding the export files (exports/ prefix)',
      value: this.exportBucket.bucketName,
    });
    new CfnOutput(this, 'CallbackSecretArn', {
      description: 'ARN of the callback signing secret {"<applicationId>": ["<secret>", ...]}',
      value: this.callbackSecret.secretArn,
    });
  }
}
