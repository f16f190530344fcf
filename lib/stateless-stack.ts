import { fileURLToPath } from 'node:url';
import {
  CfnOutput,
  CrossStackReferences,
  Duration,
  ReferenceStrength,
  Stack,
  type StackProps,
} from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import {
  DEFAULT_CALLBACK_APPLICATION_ID,
  DEFAULT_EXPORT_FEE,
  DEFAULT_IDEMPOTENCY_RETENTION_SECONDS,
  DEFAULT_INBOX_RETENTION_SECONDS,
} from '../functions/contract/retention';
import type { AuthConfig } from './config';
import { DeadLetterQueueAlarm } from './constructs/dead-letter-queue-alarm';
import type { LedgerEventQueuesRef } from './constructs/ledger-event-queues';
import { LedgerEventsConsumer } from './constructs/ledger-events-consumer';
import { LedgerFunction } from './constructs/ledger-function';
import { LedgerHttpApi } from './constructs/ledger-http-api';
import { DEFAULT_OUTBOX_MAX_RECORD_AGE, OutboxDispatcher } from './constructs/outbox-dispatcher';
import type { QueueWithDeadLetterRef } from './constructs/queue-with-dead-letter';

/** Entry of the HTTP Lambda, resolved from this file so the CWD does not matter. */
export const HTTP_HANDLER_ENTRY = fileURLToPath(
  new URL('../functions/http/handler.ts', import.meta.url),
);

/** Entry of the ledger-events consumer Lambda. */
export const EVENTS_HANDLER_ENTRY = fileURLToPath(
  new URL('../functions/events/handler.ts', import.meta.url),
);

/** Entry of the outbox dispatcher Lambda (DynamoDB stream → `export-jobs`). */
export const DISPATCHER_HANDLER_ENTRY = fileURLToPath(
  new URL('../functions/dispatcher/handler.ts', import.meta.url),
);

/** Shown on the DLQ alarm: what it means and what to do about it. */
export const EVENTS_DLQ_ALARM_DESCRIPTION = [
  'ledger-events-dlq holds at least one message: a ledger event was NOT applied to any balance.',
  'Messages with attributes error_code/error_detail were rejected permanently by the consumer',
  '(schema, unknown account, currency mismatch, insufficient funds, paymentId conflict);',
  'messages without them failed 5 deliveries (storage errors, throttling, a consumer bug: check',
  'the consumer log group). Read them without deleting, fix the cause (or tell the producer),',
  'then move them back to ledger-events with an SQS redrive (StartMessageMoveTask); the inbox',
  'dedups on (source, id), so a redrive never applies an event twice. Delete only events that',
  'must not be applied. Act within 10 days: messages expire 14 days after their first enqueue.',
  'See docs/deployment.md (Dead-lettered ledger events).',
].join(' ');

/** Shown on the export-jobs DLQ alarm. */
export const EXPORT_JOBS_DLQ_ALARM_DESCRIPTION = [
  'export-jobs-dlq holds at least one message: an export job failed 5 deliveries to the export',
  'workers, so its execution will not progress (no callbacks arrive for it). The body is the job',
  '{ taskId, executionId, accountId, format, callbackPath }. Check the export workers (logs,',
  'permissions on export-jobs, the callback secret), fix the cause, then move the messages back',
  'to export-jobs with an SQS redrive (StartMessageMoveTask); workers dedup by executionId, so a',
  'redrive never runs an export twice. Messages expire 14 days after their first enqueue.',
  'See docs/deployment.md (Export jobs).',
].join(' ');

/** Shown on the outbox-dispatch DLQ alarm. */
export const OUTBOX_DISPATCH_DLQ_ALARM_DESCRIPTION = [
  'outbox-dispatch-dlq holds at least one message: the outbox dispatcher gave up on a DynamoDB',
  'stream batch after retrying it for the maximum record age, so at least one export job never',
  'reached export-jobs (the task was paid for and stays queued). The message holds the shard and',
  'sequence numbers, not the job. The outbox items are still in the table without dispatchedAt:',
  'fix the cause (dispatcher log group, permissions, export-jobs), then send each undispatched',
  "item's job to export-jobs (workers dedup by executionId) and delete the DLQ message.",
  'See docs/deployment.md (Undelivered export jobs).',
].join(' ');

/** Iterator age at which {@link OUTBOX_ITERATOR_AGE_ALARM_DESCRIPTION}'s alarm fires. */
export const OUTBOX_ITERATOR_AGE_THRESHOLD = Duration.minutes(10);

/** Shown on the dispatcher's iterator-age alarm. */
export const OUTBOX_ITERATOR_AGE_ALARM_DESCRIPTION = [
  `The outbox dispatcher is at least ${OUTBOX_ITERATOR_AGE_THRESHOLD.toMinutes()} minutes behind the table stream: export jobs are`,
  'delayed, most likely because one keeps failing (the dispatcher retries it, in order, for up',
  `to ${DEFAULT_OUTBOX_MAX_RECORD_AGE.toHours()} hours before writing it to outbox-dispatch-dlq). Check the dispatcher log group for`,
  '"export job dispatch failed" and fix the cause; dispatch resumes by itself.',
  'See docs/deployment.md (Outbox dispatcher).',
].join(' ');

/**
 * Secrets Manager actions of the HTTP function on the callback secret. Deliberately not
 * `secret.grantRead()`, which adds `DescribeSecret` the function never calls.
 */
export const CALLBACK_SECRET_ACTIONS = ['secretsmanager:GetSecretValue'] as const;

/**
 * DynamoDB actions the HTTP function may use on the ledger table. TransactWriteItems is
 * authorised per item by PutItem / UpdateItem / ConditionCheckItem; TransactGetItems by GetItem.
 * Deliberately absent: DeleteItem, Scan, BatchWriteItem, table management.
 */
export const HTTP_TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
] as const;

export interface StatelessStackProps extends StackProps {
  /** The ledger table, owned by the stateful stack. */
  readonly table: dynamodb.ITable;

  /** `ledger-events` and its DLQ, owned by the stateful stack. */
  readonly eventQueues: LedgerEventQueuesRef;

  /** `export-jobs` and its DLQ, owned by the stateful stack. */
  readonly exportJobQueues: QueueWithDeadLetterRef;

  /** On-failure destination of the outbox dispatcher, owned by the stateful stack. */
  readonly outboxDispatchDeadLetterQueue: sqs.IQueue;

  /** Callback signing secrets (`CALLBACK_SECRETS_ARN`), owned by the stateful stack. */
  readonly callbackSecret: secretsmanager.ISecret;

  /**
   * The application whose callbacks report on export executions (`CALLBACK_APPLICATION_ID`).
   * @default DEFAULT_CALLBACK_APPLICATION_ID ('export-worker')
   */
  readonly callbackApplicationId?: string;

  /**
   * How API callers authenticate.
   * @default { kind: 'iam' }
   */
  readonly auth?: AuthConfig;

  /**
   * Idempotency record retention in seconds (`IDEMPOTENCY_RETENTION_SECONDS`).
   * @default DEFAULT_IDEMPOTENCY_RETENTION_SECONDS (86400)
   */
  readonly idempotencyRetentionSeconds?: number;

  /**
   * Inbox event id retention in seconds (`INBOX_RETENTION_SECONDS`).
   * @default DEFAULT_INBOX_RETENTION_SECONDS (2592000)
   */
  readonly inboxRetentionSeconds?: number;

  /**
   * Fee per export task in minor units (`EXPORT_FEE`).
   * @default DEFAULT_EXPORT_FEE (100)
   */
  readonly exportFee?: number;

  /**
   * Pre-built code for the HTTP function instead of bundling {@link HTTP_HANDLER_ENTRY}.
   * For template-only infra tests; its handler must be `index.handler`.
   * @default - bundle `functions/http/handler.ts` with esbuild
   */
  readonly httpHandlerCode?: lambda.Code;

  /**
   * Timeout of the events consumer; `eventQueues.visibilityTimeout` must be at least 6 × this.
   * @default EVENTS_CONSUMER_TIMEOUT (30 s)
   */
  readonly eventsConsumerTimeout?: Duration;

  /**
   * Most ledger events per consumer invocation.
   * @default DEFAULT_EVENTS_BATCH_SIZE (10)
   */
  readonly eventsBatchSize?: number;

  /**
   * Most concurrent consumer invocations started by the event source.
   * @default DEFAULT_EVENTS_MAX_CONCURRENCY (5)
   */
  readonly eventsMaxConcurrency?: number;

  /**
   * Longest wait to fill a batch of ledger events.
   * @default DEFAULT_EVENTS_MAX_BATCHING_WINDOW (1 s)
   */
  readonly eventsMaxBatchingWindow?: Duration;

  /**
   * Pre-built code for the events consumer instead of bundling {@link EVENTS_HANDLER_ENTRY}.
   * For template-only infra tests; its handler must be `index.handler`.
   * @default - bundle `functions/events/handler.ts` with esbuild
   */
  readonly eventsHandlerCode?: lambda.Code;

  /**
   * Pre-built code for the outbox dispatcher instead of bundling {@link DISPATCHER_HANDLER_ENTRY}.
   * For template-only infra tests; its handler must be `index.handler`.
   * @default - bundle `functions/dispatcher/handler.ts` with esbuild
   */
  readonly dispatcherHandlerCode?: lambda.Code;
}

/**
 * Code and API: safe to destroy and redeploy at any time. The HTTP API, the SQS inbox consumer
 * and the outbox dispatcher, each as its own construct, and their alarms.
 */
export class StatelessStack extends Stack {
  /** The function behind every HTTP route. */
  readonly httpFunction: LedgerFunction;
  /** The HTTP API and its `$default` stage. */
  readonly httpApi: LedgerHttpApi;
  /** The `ledger-events` consumer (function + SQS event source). */
  readonly eventsConsumer: LedgerEventsConsumer;
  /**
   * Fires when `ledger-events-dlq` holds a message. No action yet: attach the alarm topic here
   * (`addAlarmAction`) once it exists.
   */
  readonly eventsDeadLetterAlarm: cloudwatch.Alarm;
  /** The outbox dispatcher (function + DynamoDB stream event source). */
  readonly outboxDispatcher: OutboxDispatcher;
  /** Fires when `export-jobs-dlq` holds a message. No action yet (see eventsDeadLetterAlarm). */
  readonly exportJobsDeadLetterAlarm: cloudwatch.Alarm;
  /** Fires when `outbox-dispatch-dlq` holds a message. No action yet. */
  readonly outboxDispatchDeadLetterAlarm: cloudwatch.Alarm;
  /** Fires when the dispatcher falls behind the table stream. No action yet. */
  readonly outboxIteratorAgeAlarm: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, props: StatelessStackProps) {
    super(scope, id, props);
    // References to the stateful stack are strong (Export / Fn::ImportValue): CloudFormation
    // refuses to remove an export this stack still imports. Pinned so a CDK default cannot flip it.
    CrossStackReferences.of(this).consume(ReferenceStrength.STRONG);
    const { table, eventQueues, exportJobQueues, callbackSecret } = props;
    // Read by `loadConfig` in every handler.
    const serviceEnvironment = {
      TABLE_NAME: table.tableName,
      IDEMPOTENCY_RETENTION_SECONDS: String(
        props.idempotencyRetentionSeconds ?? DEFAULT_IDEMPOTENCY_RETENTION_SECONDS,
      ),
      INBOX_RETENTION_SECONDS: String(
        props.inboxRetentionSeconds ?? DEFAULT_INBOX_RETENTION_SECONDS,
      ),
      EXPORT_FEE: String(props.exportFee ?? DEFAULT_EXPORT_FEE),
      CALLBACK_APPLICATION_ID: props.callbackApplicationId ?? DEFAULT_CALLBACK_APPLICATION_ID,
    };

    this.httpFunction = new LedgerFunction(this, 'HttpFunction', {
      entry: HTTP_HANDLER_ENTRY,
      description: 'idempotent-ledger HTTP API (payload v2)',
      code: props.httpHandlerCode,
      // The handler refuses to start without a callback secret source.
      environment: { ...serviceEnvironment, CALLBACK_SECRETS_ARN: callbackSecret.secretArn },
    });

    // Least privilege: explicit item-level actions on the table ARN only (no indexes exist).
    this.httpFunction.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'LedgerTableItemAccess',
        actions: [...HTTP_TABLE_ACTIONS],
        resources: [table.tableArn],
      }),
    );

    // The secret is encrypted with the AWS-managed key (aws/secretsmanager): no kms:Decrypt.
    this.httpFunction.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'CallbackSecretRead',
        actions: [...CALLBACK_SECRET_ACTIONS],
        resources: [callbackSecret.secretArn],
      }),
    );

    this.httpApi = new LedgerHttpApi(this, 'HttpApi', {
      apiName: `${id}-http`,
      handler: this.httpFunction,
      auth: props.auth ?? { kind: 'iam' },
    });

    this.eventsConsumer = new LedgerEventsConsumer(this, 'EventsConsumer', {
      entry: EVENTS_HANDLER_ENTRY,
      description: 'idempotent-ledger ledger-events consumer (SQS, partial batch responses)',
      code: props.eventsHandlerCode,
      table,
      queues: eventQueues,
      environment: serviceEnvironment,
      timeout: props.eventsConsumerTimeout,
      batchSize: props.eventsBatchSize,
      maxConcurrency: props.eventsMaxConcurrency,
      maxBatchingWindow: props.eventsMaxBatchingWindow,
    });

    this.eventsDeadLetterAlarm = new DeadLetterQueueAlarm(this, 'EventsDeadLetterAlarm', {
      queue: eventQueues.deadLetterQueue,
      description: EVENTS_DLQ_ALARM_DESCRIPTION,
    }).alarm;

    this.outboxDispatcher = new OutboxDispatcher(this, 'OutboxDispatcher', {
      entry: DISPATCHER_HANDLER_ENTRY,
      description: 'idempotent-ledger outbox dispatcher (DynamoDB stream -> export-jobs)',
      code: props.dispatcherHandlerCode,
      table,
      exportJobsQueue: exportJobQueues.queue,
      deadLetterQueue: props.outboxDispatchDeadLetterQueue,
    });

    this.exportJobsDeadLetterAlarm = new DeadLetterQueueAlarm(this, 'ExportJobsDeadLetterAlarm', {
      queue: exportJobQueues.deadLetterQueue,
      description: EXPORT_JOBS_DLQ_ALARM_DESCRIPTION,
    }).alarm;

    this.outboxDispatchDeadLetterAlarm = new DeadLetterQueueAlarm(
      this,
      'OutboxDispatchDeadLetterAlarm',
      {
        queue: props.outboxDispatchDeadLetterQueue,
        description: OUTBOX_DISPATCH_DLQ_ALARM_DESCRIPTION,
      },
    ).alarm;

    // Nothing reaches the DLQ for up to maxRecordAge: this is the early warning.
    this.outboxIteratorAgeAlarm = new cloudwatch.Alarm(this, 'OutboxIteratorAgeAlarm', {
      alarmDescription: OUTBOX_ITERATOR_AGE_ALARM_DESCRIPTION,
      metric: this.outboxDispatcher.function.metric('IteratorAge', {
        period: Duration.minutes(5),
        statistic: cloudwatch.Stats.MAXIMUM,
      }),
      threshold: OUTBOX_ITERATOR_AGE_THRESHOLD.toMilliseconds(),
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      datapointsToAlarm: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });

    new CfnOutput(this, 'ApiUrl', {
      description: 'Invoke URL of the HTTP API ($default stage)',
      value: this.httpApi.url,
    });
  }
}
