import { Duration, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { ACCOUNT_ITEM_KIND, ACCOUNT_METADATA_ITEM_KIND } from '../../../functions/contract/names';
import { keys } from '../../../functions/dynamodb/table/keys';
import {
  handlerEntry,
  LedgerFunction,
  type LedgerFunctionDefaults,
} from '../shared/ledger-function';
import type { JournalTopicRef } from './journal-topic';

/**
 * Timeout of the projector. A batch is one GetItem of each account's head and one transaction
 * per account update (accounts in parallel), then one PublishBatch per 10 records; a hot account
 * of 100 updates in one batch is 100 transactions one after another. 60 s covers that with SDK
 * retries; a timed-out batch is retried whole, and what it wrote is a no-op then.
 */
const JOURNAL_PROJECTOR_TIMEOUT = Duration.seconds(60);

/** Stream records per invocation: fewer invocations, one head read per account and batch. */
const JOURNAL_BATCH_SIZE = 100;

/**
 * Retries of a failing batch: unlimited, and no maximum record age. The journal must never skip
 * a record, so a failing one is retried until it succeeds (the iterator-age alarm pages long
 * before the stream's 24 h retention runs out); there is no on-failure destination to give up to.
 */
const JOURNAL_RETRY_ATTEMPTS = -1;

/**
 * The projector's table actions: GetItem (a head), Query (an update's records, to publish them
 * again), PutItem (records, as-of copies and the head, inside TransactWriteItems, which is
 * authorised per item). Only on journal partitions (`dynamodb:LeadingKeys` `JOURNAL#*`), and a
 * PutItem of the reconciler's marks (`RECONCILE_MARK#*`), and an UpdateItem of day sums
 * (`EFFDAYS#*`): it never reads or writes an account, an entry or anything else.
 */
const JOURNAL_TABLE_ACTIONS = ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem'] as const;

/** What the projector does with balance monitors: list them, record and confirm flips. */
const MONITOR_TABLE_ACTIONS = ['dynamodb:Query', 'dynamodb:UpdateItem'] as const;

/** Publishing to a KMS-encrypted topic needs exactly these on its key. */
const TOPIC_KEY_ACTIONS = ['kms:GenerateDataKey', 'kms:Decrypt'] as const;

/**
 * Stream records the projector is invoked for: updates of account items that carry `version`,
 * which the one account-change builder sets in the same SET as `lastChanges`
 * (functions/dynamodb/movements/account-change.ts). Creations (INSERT), other items and accounts
 * from before the journal that have not changed since never reach it. (Lambda's `exists` filter
 * matches leaf values only: `version.N` is one, the list `lastChanges` is not.)
 */
export const JOURNAL_FILTER = lambda.FilterCriteria.filter({
  eventName: lambda.FilterRule.isEqual('MODIFY'),
  dynamodb: {
    NewImage: {
      kind: { S: lambda.FilterRule.isEqual(ACCOUNT_ITEM_KIND) },
      version: { N: lambda.FilterRule.exists() },
    },
  },
});

/**
 * What the search indexer needs besides (docs/contract.md §34): account creations (INSERT) and
 * every change of an account's metadata item (removals carry only the old image).
 */
export const SEARCH_FILTERS = [
  lambda.FilterCriteria.filter({
    eventName: lambda.FilterRule.isEqual('INSERT'),
    dynamodb: { NewImage: { kind: { S: lambda.FilterRule.isEqual(ACCOUNT_ITEM_KIND) } } },
  }),
  lambda.FilterCriteria.filter({
    dynamodb: { NewImage: { kind: { S: lambda.FilterRule.isEqual(ACCOUNT_METADATA_ITEM_KIND) } } },
  }),
  lambda.FilterCriteria.filter({
    dynamodb: { OldImage: { kind: { S: lambda.FilterRule.isEqual(ACCOUNT_METADATA_ITEM_KIND) } } },
  }),
];

export interface JournalProjectorProps {
  /** Log group settings and test code shared by every function of the stack. */
  readonly functionDefaults?: LedgerFunctionDefaults;

  /** The ledger table; its stream (NEW_IMAGE) feeds the projector. */
  readonly table: dynamodb.ITable;

  /** The journal topic and its key. */
  readonly topic: JournalTopicRef;

  /** The deployment's stage: the events' `source` is `urn:idempotent-ledger:<stage>`. */
  readonly stage: string;

  /** `search-index` (docs/contract.md §34): the projector hands the search indexer each batch. */
  readonly searchIndexQueue?: sqs.IQueue;
}

/** Why the projector's role has `dynamodb:ListStreams` on `*` (cdk-nag AwsSolutions-IAM5). */
const LIST_STREAMS_ACKNOWLEDGEMENT_REASON =
  'dynamodb:ListStreams has no resource-level permissions, so IAM only accepts it on "*"; Lambda needs it to read the table stream. It returns stream ARNs and labels, no table data. Every other statement of the role names its resource (the stream ARN, the table ARN limited to JOURNAL#, RECONCILE_MARK#, MONITOR# and EFFDAYS# partitions, the journal topic and its key).';

/**
 * The journal projector (`functions/handlers/journal-projector/handler.ts`): a
 * {@link LedgerFunction} on the table's stream, the stream's second and last reader beside the
 * outbox dispatcher (DynamoDB Streams serves at most two per shard). For each account update it
 * writes the journal records and the head in one transaction, then publishes every record of the
 * batch to the journal topic (docs/contract.md §15).
 *
 * In order and complete: one invocation per shard at a time (parallelization factor 1), from
 * TRIM_HORIZON, no batch splitting (bisecting would reorder), failures reported per record
 * (`ReportBatchItemFailures`: Lambda retries from the first failed record), unlimited retries
 * and no maximum record age, no reserved-concurrency cap (a cap would delay shards). The journal
 * is complete only while the projector stays within the stream's 24 h retention.
 */
export class JournalProjector extends Construct {
  readonly function: LedgerFunction;
  readonly eventSource: DynamoEventSource;

  constructor(scope: Construct, id: string, props: JournalProjectorProps) {
    super(scope, id);
    const { table, topic } = props;
    if (!table.tableStreamArn) {
      throw new Error(
        `the journal projector needs a table with a stream; ${table.node.path} has none`,
      );
    }

    this.function = new LedgerFunction(this, 'Function', {
      ...props.functionDefaults,
      entry: handlerEntry('journal-projector'),
      description: 'idempotent-ledger journal projector (DynamoDB stream -> journal, SNS)',
      timeout: JOURNAL_PROJECTOR_TIMEOUT,
      // Exactly what functions/handlers/journal-projector/handler.ts reads at import.
      environment: {
        TABLE_NAME: table.tableName,
        JOURNAL_TOPIC_ARN: topic.topic.topicArn,
        STAGE: props.stage,
        ...(props.searchIndexQueue
          ? { SEARCH_INDEX_QUEUE_URL: props.searchIndexQueue.queueUrl }
          : {}),
      },
    });

    // Grants DescribeStream / GetRecords / GetShardIterator on the stream ARN and ListStreams
    // (which has no resource-level permissions) on '*'.
    this.eventSource = new DynamoEventSource(table, {
      startingPosition: lambda.StartingPosition.TRIM_HORIZON,
      batchSize: JOURNAL_BATCH_SIZE,
      parallelizationFactor: 1,
      reportBatchItemFailures: true,
      bisectBatchOnError: false,
      retryAttempts: JOURNAL_RETRY_ATTEMPTS,
      filters: props.searchIndexQueue ? [JOURNAL_FILTER, ...SEARCH_FILTERS] : [JOURNAL_FILTER],
    });
    this.function.addEventSource(this.eventSource);

    this.function.allow('JournalItems', JOURNAL_TABLE_ACTIONS, [table.tableArn], {
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['JOURNAL#*'] },
    });
    // The reconciler's mark (docs/contract.md §19), written in the same transaction: only Put.
    this.function.allow('ReconcileMarks', ['dynamodb:PutItem'], [table.tableArn], {
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [keys.reconcileMarker('*', '').pk] },
    });
    // Balance monitors (docs/contract.md §28): read, and their flips recorded conditionally.
    this.function.allow('MonitorItems', MONITOR_TABLE_ACTIONS, [table.tableArn], {
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${keys.monitorCount('').pk}*`] },
    });
    // Day sums of effective time (docs/contract.md §31, §36): added by conditional updates only.
    this.function.allow('EffectiveDayItems', ['dynamodb:UpdateItem'], [table.tableArn], {
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [keys.effectiveDay('*', '').pk] },
    });
    this.function.allow('JournalPublish', ['sns:Publish'], [topic.topic.topicArn]);
    this.function.allow('JournalTopicKey', TOPIC_KEY_ACTIONS, [topic.key.keyArn]);
    if (props.searchIndexQueue) {
      // The hand-off to the search indexer (SendMessageBatch is sqs:SendMessage).
      this.function.allow(
        'SearchIndexSend',
        ['sqs:SendMessage'],
        [props.searchIndexQueue.queueArn],
      );
    }

    if (this.function.role) {
      Validations.of(this.function.role).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: LIST_STREAMS_ACKNOWLEDGEMENT_REASON,
      });
    }
  }
}
