import { Duration, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { OUTBOX_ITEM_KIND } from '../../../functions/contract/names';
import { PENDING_CREDIT_KIND } from '../../../functions/dynamodb/intake/items';
import {
  handlerEntry,
  LedgerFunction,
  type LedgerFunctionDefaults,
} from '../shared/ledger-function';

/**
 * Timeout of the dispatcher. Each record is one SendMessage and one UpdateItem, one after
 * another; 30 s covers a full batch with SDK retries. A timed-out batch is retried whole, which
 * resends jobs already sent: harmless, workers dedup by `executionId`.
 */
const OUTBOX_DISPATCHER_TIMEOUT = Duration.seconds(30);

/** Stream records per invocation by default. */
const DEFAULT_OUTBOX_BATCH_SIZE = 25;

/**
 * How long a failing record is retried before Lambda gives up and writes the batch's location to
 * the on-failure queue. Stream records live 24 hours; giving up well before that leaves the
 * records readable while an operator looks, and the outbox items stay in the table regardless.
 */
export const DEFAULT_OUTBOX_MAX_RECORD_AGE = Duration.hours(12);

/**
 * Retries of a failing batch: -1 is unlimited, so {@link DEFAULT_OUTBOX_MAX_RECORD_AGE} alone
 * bounds how long the dispatcher keeps trying.
 */
const OUTBOX_RETRY_ATTEMPTS = -1;

/**
 * The dispatcher's only table action: it marks an outbox item dispatched (`UpdateItem` with
 * `attribute_exists(pk)`). Stream read permissions come from the event source.
 */
const OUTBOX_TABLE_ACTIONS = ['dynamodb:UpdateItem'] as const;

/** New items of `kind`: what the dispatcher's filters admit (Lambda ORs a source's filters). */
const insertsOf = (kind: string) =>
  lambda.FilterCriteria.filter({
    eventName: lambda.FilterRule.isEqual('INSERT'),
    dynamodb: { NewImage: { kind: { S: lambda.FilterRule.isEqual(kind) } } },
  });

/**
 * Stream records the dispatcher is invoked for: new outbox items and new pending credits
 * (docs/contract.md §24, forwarded to `credit-intake`), nothing else on the table.
 */
export const DISPATCHER_FILTERS = [insertsOf(OUTBOX_ITEM_KIND), insertsOf(PENDING_CREDIT_KIND)];

export interface OutboxDispatcherProps {
  /** Log group settings and test code shared by every function of the stack. */
  readonly functionDefaults?: LedgerFunctionDefaults;

  /** The ledger table; it must have a stream (NEW_IMAGE), which feeds the dispatcher. */
  readonly table: dynamodb.ITable;

  /** `export-jobs`: the dispatcher sends export jobs there (`EXPORT_JOBS_QUEUE_URL`). */
  readonly exportJobsQueue: sqs.IQueue;

  /** `credit-intake`: accounts with new pending credits go there (`CREDIT_INTAKE_QUEUE_URL`). */
  readonly creditIntakeQueue: sqs.IQueue;

  /** On-failure destination of the stream event source (`outbox-dispatch-dlq`). */
  readonly deadLetterQueue: sqs.IQueue;

  /**
   * When an account's `INTAKE_DUE` marker falls due after a credit (`INTAKE_STRANDED_AFTER_SECONDS`,
   * docs/contract.md §36); the sweeper must read the same value.
   * @default - the handler's default (60 s)
   */
  readonly intakeStrandedAfterSeconds?: number;

  /**
   * Function timeout.
   * @default OUTBOX_DISPATCHER_TIMEOUT (30 s)
   */
  readonly timeout?: Duration;

  /**
   * Most stream records per invocation, 1–10,000 (AWS limits).
   * @default DEFAULT_OUTBOX_BATCH_SIZE (25)
   */
  readonly batchSize?: number;

  /**
   * Age after which a failing record is given up and its batch reported to `deadLetterQueue`,
   * 60 s – 7 days (AWS limits); keep it under the stream's 24-hour retention.
   * @default DEFAULT_OUTBOX_MAX_RECORD_AGE (12 hours)
   */
  readonly maxRecordAge?: Duration;

  /**
   * Concurrent executions reserved for (and capped at) the dispatcher. The stream source runs
   * one invocation per shard at a time (parallelization factor 1), so a cap delays shards beyond
   * it, never reorders a shard.
   * @default - none reserved
   */
  readonly reservedConcurrentExecutions?: number;
}

/** Why the dispatcher's role has `dynamodb:ListStreams` on `*` (cdk-nag AwsSolutions-IAM5). */
const LIST_STREAMS_ACKNOWLEDGEMENT_REASON =
  'dynamodb:ListStreams has no resource-level permissions, so IAM only accepts it on "*"; Lambda needs it to read the table stream. It returns stream ARNs and labels, no table data. Every other statement of the role names its resource (the stream ARN, the table ARN, export-jobs, credit-intake, outbox-dispatch-dlq).';

/**
 * The transactional outbox dispatcher (`functions/handlers/dispatcher/handler.ts`): a {@link LedgerFunction} on the table's stream that sends
 * every new outbox item to `export-jobs` and marks it dispatched, and every account with new
 * pending credits to `credit-intake` (docs/contract.md §24), one message per account and batch.
 *
 * Delivery is in order and at least once. Records of a shard arrive in order
 * (parallelization factor 1); the handler stops at the first failure and reports it
 * (`ReportBatchItemFailures`), so Lambda retries from that record without splitting the batch
 * (`bisectBatchOnError: false` would otherwise reorder). Retries are unlimited up to
 * `maxRecordAge`; then the batch's location goes to `deadLetterQueue`, never silently dropped.
 */
export class OutboxDispatcher extends Construct {
  readonly function: LedgerFunction;
  readonly eventSource: DynamoEventSource;

  constructor(scope: Construct, id: string, props: OutboxDispatcherProps) {
    super(scope, id);
    const { table, exportJobsQueue, creditIntakeQueue, deadLetterQueue } = props;
    if (!table.tableStreamArn) {
      throw new Error(
        `the outbox dispatcher needs a table with a stream; ${table.node.path} has none`,
      );
    }

    this.function = new LedgerFunction(this, 'Function', {
      ...props.functionDefaults,
      entry: handlerEntry('dispatcher'),
      description:
        'idempotent-ledger outbox dispatcher (DynamoDB stream -> export-jobs, credit-intake)',
      timeout: props.timeout ?? OUTBOX_DISPATCHER_TIMEOUT,
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      // Exactly what functions/handlers/dispatcher/handler.ts reads at import.
      environment: {
        TABLE_NAME: table.tableName,
        EXPORT_JOBS_QUEUE_URL: exportJobsQueue.queueUrl,
        CREDIT_INTAKE_QUEUE_URL: creditIntakeQueue.queueUrl,
        ...(props.intakeStrandedAfterSeconds === undefined
          ? {}
          : { INTAKE_STRANDED_AFTER_SECONDS: String(props.intakeStrandedAfterSeconds) }),
      },
    });

    // Grants DescribeStream / GetRecords / GetShardIterator on the stream ARN and ListStreams
    // (which has no resource-level permissions) on '*'; SqsDlq grants sending to the DLQ.
    this.eventSource = new DynamoEventSource(table, {
      startingPosition: lambda.StartingPosition.TRIM_HORIZON,
      batchSize: props.batchSize ?? DEFAULT_OUTBOX_BATCH_SIZE,
      parallelizationFactor: 1,
      reportBatchItemFailures: true,
      bisectBatchOnError: false,
      retryAttempts: OUTBOX_RETRY_ATTEMPTS,
      maxRecordAge: props.maxRecordAge ?? DEFAULT_OUTBOX_MAX_RECORD_AGE,
      onFailure: new SqsDlq(deadLetterQueue),
      filters: DISPATCHER_FILTERS,
    });
    this.function.addEventSource(this.eventSource);

    this.function.allow('ExportJobsSend', ['sqs:SendMessage'], [exportJobsQueue.queueArn]);
    // SendMessageBatch (one message per account) is authorised as sqs:SendMessage.
    this.function.allow('CreditIntakeSend', ['sqs:SendMessage'], [creditIntakeQueue.queueArn]);
    this.function.allow('OutboxMarkDispatched', OUTBOX_TABLE_ACTIONS, [table.tableArn]);

    // Acknowledges exactly the `Resource::*` finding on this role, which comes from the event
    // source's ListStreams statement. The infra tests make sure no other statement uses `*`.
    if (this.function.role) {
      Validations.of(this.function.role).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: LIST_STREAMS_ACKNOWLEDGEMENT_REASON,
      });
    }
  }
}
