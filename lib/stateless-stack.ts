import { fileURLToPath } from 'node:url';
import {
  CfnOutput,
  CrossStackReferences,
  type Duration,
  ReferenceStrength,
  Stack,
  type StackProps,
} from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import {
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

/** Entry of the HTTP Lambda, resolved from this file so the CWD does not matter. */
export const HTTP_HANDLER_ENTRY = fileURLToPath(
  new URL('../functions/http/handler.ts', import.meta.url),
);

/** Entry of the ledger-events consumer Lambda. */
export const EVENTS_HANDLER_ENTRY = fileURLToPath(
  new URL('../functions/events/handler.ts', import.meta.url),
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
}

/**
 * Code and API: safe to destroy and redeploy at any time. Consumers (the SQS inbox now, the
 * outbox dispatcher later) belong here, each as its own construct.
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

  constructor(scope: Construct, id: string, props: StatelessStackProps) {
    super(scope, id, props);
    // References to the stateful stack are strong (Export / Fn::ImportValue): CloudFormation
    // refuses to remove an export this stack still imports. Pinned so a CDK default cannot flip it.
    CrossStackReferences.of(this).consume(ReferenceStrength.STRONG);
    const { table, eventQueues } = props;
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
    };

    this.httpFunction = new LedgerFunction(this, 'HttpFunction', {
      entry: HTTP_HANDLER_ENTRY,
      description: 'idempotent-ledger HTTP API (payload v2)',
      code: props.httpHandlerCode,
      environment: serviceEnvironment,
    });

    // Least privilege: explicit item-level actions on the table ARN only (no indexes exist).
    this.httpFunction.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'LedgerTableItemAccess',
        actions: [...HTTP_TABLE_ACTIONS],
        resources: [table.tableArn],
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

    new CfnOutput(this, 'ApiUrl', {
      description: 'Invoke URL of the HTTP API ($default stage)',
      value: this.httpApi.url,
    });
  }
}
