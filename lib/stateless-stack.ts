import { fileURLToPath } from 'node:url';
import {
  CfnOutput,
  CrossStackReferences,
  Duration,
  ReferenceStrength,
  RemovalPolicy,
  Stack,
  type StackProps,
} from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import {
  DEFAULT_CALLBACK_APPLICATION_ID,
  DEFAULT_EXPORT_FEE,
  DEFAULT_IDEMPOTENCY_RETENTION_SECONDS,
  DEFAULT_INBOX_RETENTION_SECONDS,
} from '../functions/contract/retention';
import { METRICS } from '../functions/observability/metrics';
import {
  ALARM_SLUGS,
  type AlarmSlug,
  api5xxDescription,
  DISPATCHER_ERRORS_DESCRIPTION,
  DISPATCHER_THROTTLE_EFFECT,
  EVENTS_DLQ_ALARM_DESCRIPTION,
  EVENTS_ERRORS_DESCRIPTION,
  EVENTS_THROTTLE_EFFECT,
  EXPORT_JOBS_DLQ_ALARM_DESCRIPTION,
  HTTP_ERRORS_DESCRIPTION,
  HTTP_THROTTLE_EFFECT,
  OUTBOX_DISPATCH_DLQ_ALARM_DESCRIPTION,
  outboxIteratorAgeDescription,
  storageThrottleDescription,
  tableSystemErrorsDescription,
  tableThrottlesDescription,
  throttlesDescription,
} from './alarm-catalog';
import {
  type AuthConfig,
  DEFAULT_API_5XX_THRESHOLD,
  DEFAULT_API_THROTTLE,
  DEFAULT_DISPATCHER_RESERVED_CONCURRENCY,
  DEFAULT_LOG_RETENTION_DAYS,
  type LogRetentionDays,
  type ThrottleConfig,
} from './config';
import { DeadLetterQueueAlarm } from './constructs/dead-letter-queue-alarm';
import type { LedgerEventQueuesRef } from './constructs/ledger-event-queues';
import { LedgerEventsConsumer } from './constructs/ledger-events-consumer';
import { LedgerFunction } from './constructs/ledger-function';
import { LedgerHttpApi } from './constructs/ledger-http-api';
import { describeAlarm, OperationsAlarms } from './constructs/operations-alarms';
import {
  OperationsDashboard,
  TABLE_OPERATIONS,
  tableOperationMetric,
} from './constructs/operations-dashboard';
import { DEFAULT_OUTBOX_MAX_RECORD_AGE, OutboxDispatcher } from './constructs/outbox-dispatcher';
import type { QueueWithDeadLetterRef } from './constructs/queue-with-dead-letter';
import { SERVICE_NAMES, serviceMetric, sumOfSparse } from './service-metrics';

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

/** Iterator age at which the dispatcher's `outbox-dispatcher-behind` alarm fires. */
export const OUTBOX_ITERATOR_AGE_THRESHOLD = Duration.minutes(10);

/** Period of the function, API and table alarms. */
export const ALARM_PERIOD = Duration.minutes(5);

/** StorageThrottle counts (retries + 503s) in 5 minutes that raise `storage-throttle-retries`. */
export const STORAGE_THROTTLE_THRESHOLD = 10;

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

  /**
   * Prefix of the names this stack gives out: alarms (`<prefix>-<slug>`), the alarm topic
   * (`<prefix>-alarms`) and the dashboard (`<prefix>`).
   * @default - the stack's id
   */
  readonly namePrefix?: string;

  /**
   * Retention of every log group (functions, API access logs), in days.
   * @default DEFAULT_LOG_RETENTION_DAYS (30)
   */
  readonly logRetentionDays?: LogRetentionDays;

  /**
   * What happens to the log groups when they leave the stack.
   * @default RemovalPolicy.RETAIN
   */
  readonly logRemovalPolicy?: RemovalPolicy;

  /**
   * `$default` stage throttling (every route without its own setting).
   * @default DEFAULT_API_THROTTLE (100 requests/s, bursts of 200)
   */
  readonly apiThrottle?: ThrottleConfig;

  /**
   * Throttling of the unauthenticated callbacks route.
   * @default half of `apiThrottle` (50 / 100)
   */
  readonly callbackThrottle?: ThrottleConfig;

  /**
   * Reserved concurrency of the HTTP function.
   * @default - none: the API stage throttle limits the load, and the function shares the
   *   account's unreserved pool
   */
  readonly httpReservedConcurrency?: number;

  /**
   * Reserved concurrency of the outbox dispatcher; `null` reserves none.
   * @default DEFAULT_DISPATCHER_RESERVED_CONCURRENCY (2)
   */
  readonly dispatcherReservedConcurrency?: number | null;

  /**
   * Subscribed to the alarm topic by e-mail.
   * @default - no subscription
   */
  readonly alarmEmail?: string;

  /**
   * 5xx responses of the HTTP API in 5 minutes that raise `api-5xx-responses`.
   * @default DEFAULT_API_5XX_THRESHOLD (5)
   */
  readonly api5xxThreshold?: number;
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
  /** Fires when `ledger-events-dlq` holds a message. */
  readonly eventsDeadLetterAlarm: cloudwatch.Alarm;
  /** The outbox dispatcher (function + DynamoDB stream event source). */
  readonly outboxDispatcher: OutboxDispatcher;
  /** Fires when `export-jobs-dlq` holds a message. */
  readonly exportJobsDeadLetterAlarm: cloudwatch.Alarm;
  /** Fires when `outbox-dispatch-dlq` holds a message. */
  readonly outboxDispatchDeadLetterAlarm: cloudwatch.Alarm;
  /** Fires when the dispatcher falls behind the table stream. */
  readonly outboxIteratorAgeAlarm: cloudwatch.Alarm;
  /** The alarm topic (KMS-encrypted, TLS only) and the house style of every alarm. */
  readonly operations: OperationsAlarms;
  /** Every alarm of the service by slug; each notifies `operations.topic`. */
  readonly alarms: Readonly<Record<AlarmSlug, cloudwatch.Alarm>>;
  /** The operators' CloudWatch dashboard. */
  readonly dashboard: OperationsDashboard;

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

    const namePrefix = props.namePrefix ?? id;
    // RetentionDays values are the day counts themselves.
    const logRetention = (props.logRetentionDays ??
      DEFAULT_LOG_RETENTION_DAYS) as logs.RetentionDays;
    const logRemovalPolicy = props.logRemovalPolicy ?? RemovalPolicy.RETAIN;
    const apiThrottle = props.apiThrottle ?? DEFAULT_API_THROTTLE;
    const callbackThrottle = props.callbackThrottle ?? {
      rateLimit: Math.max(1, Math.floor(apiThrottle.rateLimit / 2)),
      burstLimit: Math.max(1, Math.floor(apiThrottle.burstLimit / 2)),
    };
    const dispatcherReservedConcurrency =
      props.dispatcherReservedConcurrency === undefined
        ? DEFAULT_DISPATCHER_RESERVED_CONCURRENCY
        : (props.dispatcherReservedConcurrency ?? undefined);

    this.httpFunction = new LedgerFunction(this, 'HttpFunction', {
      entry: HTTP_HANDLER_ENTRY,
      description: 'idempotent-ledger HTTP API (payload v2)',
      code: props.httpHandlerCode,
      logRetention,
      logRemovalPolicy,
      // Not reserved by default: the stage throttle already bounds the load, and a reservation
      // would take that much from the pool every other function in the account shares.
      reservedConcurrentExecutions: props.httpReservedConcurrency,
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
      throttleRateLimit: apiThrottle.rateLimit,
      throttleBurstLimit: apiThrottle.burstLimit,
      callbackThrottleRateLimit: callbackThrottle.rateLimit,
      callbackThrottleBurstLimit: callbackThrottle.burstLimit,
      accessLogRetention: logRetention,
      accessLogRemovalPolicy: logRemovalPolicy,
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
      // The consumer's runaway guard: the event source never runs more than this many at once.
      maxConcurrency: props.eventsMaxConcurrency,
      maxBatchingWindow: props.eventsMaxBatchingWindow,
      logRetention,
      logRemovalPolicy,
    });

    this.outboxDispatcher = new OutboxDispatcher(this, 'OutboxDispatcher', {
      entry: DISPATCHER_HANDLER_ENTRY,
      description: 'idempotent-ledger outbox dispatcher (DynamoDB stream -> export-jobs)',
      code: props.dispatcherHandlerCode,
      table,
      exportJobsQueue: exportJobQueues.queue,
      deadLetterQueue: props.outboxDispatchDeadLetterQueue,
      reservedConcurrentExecutions: dispatcherReservedConcurrency,
      logRetention,
      logRemovalPolicy,
    });

    // ---- Alarms: every one notifies the topic (ALARM and OK), runbook in docs/alarms.md ----
    this.operations = new OperationsAlarms(this, 'Operations', {
      namePrefix,
      email: props.alarmEmail,
    });
    const ops = this.operations;
    const S = ALARM_SLUGS;

    const deadLetterAlarm = (alarmId: string, slug: AlarmSlug, queue: sqs.IQueue, text: string) =>
      ops.notify(
        new DeadLetterQueueAlarm(this, alarmId, {
          queue,
          alarmName: ops.alarmName(slug),
          description: describeAlarm(slug, text),
        }).alarm,
      );
    this.eventsDeadLetterAlarm = deadLetterAlarm(
      'EventsDeadLetterAlarm',
      S.eventsDeadLetters,
      eventQueues.deadLetterQueue,
      EVENTS_DLQ_ALARM_DESCRIPTION,
    );
    this.exportJobsDeadLetterAlarm = deadLetterAlarm(
      'ExportJobsDeadLetterAlarm',
      S.exportJobsDeadLetters,
      exportJobQueues.deadLetterQueue,
      EXPORT_JOBS_DLQ_ALARM_DESCRIPTION,
    );
    this.outboxDispatchDeadLetterAlarm = deadLetterAlarm(
      'OutboxDispatchDeadLetterAlarm',
      S.outboxDispatchDeadLetters,
      props.outboxDispatchDeadLetterQueue,
      OUTBOX_DISPATCH_DLQ_ALARM_DESCRIPTION,
    );

    // Nothing reaches the DLQ for up to maxRecordAge: this is the early warning.
    this.outboxIteratorAgeAlarm = ops.addAlarm(this, 'OutboxIteratorAgeAlarm', {
      slug: S.outboxIteratorAge,
      description: outboxIteratorAgeDescription(
        OUTBOX_ITERATOR_AGE_THRESHOLD,
        DEFAULT_OUTBOX_MAX_RECORD_AGE,
      ),
      metric: this.outboxDispatcher.function.metric('IteratorAge', {
        period: ALARM_PERIOD,
        statistic: cloudwatch.Stats.MAXIMUM,
      }),
      threshold: OUTBOX_ITERATOR_AGE_THRESHOLD.toMilliseconds(),
    });

    const sum = { period: ALARM_PERIOD, statistic: cloudwatch.Stats.SUM };
    const functionAlarms = (
      fn: lambda.IFunction,
      prefix: string,
      slugs: { errors: AlarmSlug; throttles: AlarmSlug },
      errorsText: string,
      throttlesText: string,
    ) => ({
      [slugs.errors]: ops.addAlarm(this, `${prefix}ErrorsAlarm`, {
        slug: slugs.errors,
        description: errorsText,
        metric: fn.metricErrors(sum),
        threshold: 1,
      }),
      [slugs.throttles]: ops.addAlarm(this, `${prefix}ThrottlesAlarm`, {
        slug: slugs.throttles,
        description: throttlesText,
        metric: fn.metricThrottles(sum),
        threshold: 1,
      }),
    });

    const api5xxThreshold = props.api5xxThreshold ?? DEFAULT_API_5XX_THRESHOLD;
    const tableMetrics = (metricName: 'ThrottledRequests' | 'SystemErrors', label: string) =>
      sumOfSparse(
        Object.fromEntries(
          TABLE_OPERATIONS.map((op) => [
            op.charAt(0).toLowerCase() + op.slice(1),
            tableOperationMetric(table, metricName, op, { period: ALARM_PERIOD }),
          ]),
        ),
        { label, period: ALARM_PERIOD },
      );

    this.alarms = {
      [S.eventsDeadLetters]: this.eventsDeadLetterAlarm,
      [S.exportJobsDeadLetters]: this.exportJobsDeadLetterAlarm,
      [S.outboxDispatchDeadLetters]: this.outboxDispatchDeadLetterAlarm,
      [S.outboxIteratorAge]: this.outboxIteratorAgeAlarm,
      ...functionAlarms(
        this.httpFunction,
        'HttpFunction',
        { errors: S.httpErrors, throttles: S.httpThrottles },
        HTTP_ERRORS_DESCRIPTION,
        throttlesDescription('HTTP function (ledger-http)', HTTP_THROTTLE_EFFECT),
      ),
      ...functionAlarms(
        this.eventsConsumer.function,
        'EventsConsumer',
        { errors: S.eventsErrors, throttles: S.eventsThrottles },
        EVENTS_ERRORS_DESCRIPTION,
        throttlesDescription('ledger-events consumer', EVENTS_THROTTLE_EFFECT),
      ),
      ...functionAlarms(
        this.outboxDispatcher.function,
        'OutboxDispatcher',
        { errors: S.dispatcherErrors, throttles: S.dispatcherThrottles },
        DISPATCHER_ERRORS_DESCRIPTION,
        throttlesDescription('outbox dispatcher', DISPATCHER_THROTTLE_EFFECT),
      ),
      [S.api5xx]: ops.addAlarm(this, 'Api5xxAlarm', {
        slug: S.api5xx,
        description: api5xxDescription(api5xxThreshold),
        // HTTP API metric `5xx` with dimensions ApiId and Stage.
        metric: this.httpApi.stage.metricServerError(sum),
        threshold: api5xxThreshold,
      }),
      [S.tableThrottles]: ops.addAlarm(this, 'TableThrottledRequestsAlarm', {
        slug: S.tableThrottles,
        description: tableThrottlesDescription(TABLE_OPERATIONS),
        metric: tableMetrics('ThrottledRequests', 'ThrottledRequests (all operations)'),
        threshold: 1,
      }),
      [S.tableSystemErrors]: ops.addAlarm(this, 'TableSystemErrorsAlarm', {
        slug: S.tableSystemErrors,
        description: tableSystemErrorsDescription(TABLE_OPERATIONS),
        metric: tableMetrics('SystemErrors', 'SystemErrors (all operations)'),
        threshold: 1,
      }),
      [S.storageThrottle]: ops.addAlarm(this, 'StorageThrottleAlarm', {
        slug: S.storageThrottle,
        description: storageThrottleDescription(STORAGE_THROTTLE_THRESHOLD),
        metric: sumOfSparse(
          {
            http: serviceMetric(METRICS.storageThrottle, SERVICE_NAMES.http),
            events: serviceMetric(METRICS.storageThrottle, SERVICE_NAMES.events),
          },
          { label: 'StorageThrottle (all services)', period: ALARM_PERIOD },
        ),
        threshold: STORAGE_THROTTLE_THRESHOLD,
      }),
    } as Record<AlarmSlug, cloudwatch.Alarm>;

    this.dashboard = new OperationsDashboard(this, 'Dashboard', {
      dashboardName: namePrefix,
      functions: {
        'ledger-http': this.httpFunction,
        'ledger-events': this.eventsConsumer.function,
        'outbox-dispatcher': this.outboxDispatcher.function,
      },
      dispatcher: this.outboxDispatcher.function,
      stage: this.httpApi.stage,
      queues: {
        'ledger-events': eventQueues.queue,
        'export-jobs': exportJobQueues.queue,
      },
      deadLetterQueues: {
        'ledger-events-dlq': eventQueues.deadLetterQueue,
        'export-jobs-dlq': exportJobQueues.deadLetterQueue,
        'outbox-dispatch-dlq': props.outboxDispatchDeadLetterQueue,
      },
      table,
      alarms: ops.alarms,
    });

    new CfnOutput(this, 'ApiUrl', {
      description: 'Invoke URL of the HTTP API ($default stage)',
      value: this.httpApi.url,
    });
    // Log group names are generated; the runbook (docs/alarms.md) queries them by these outputs.
    for (const [outputId, description, logGroup] of [
      ['HttpFunctionLogGroupName', 'HTTP function', this.httpFunction.logGroup],
      [
        'EventsConsumerLogGroupName',
        'ledger-events consumer',
        this.eventsConsumer.function.logGroup,
      ],
      [
        'OutboxDispatcherLogGroupName',
        'outbox dispatcher',
        this.outboxDispatcher.function.logGroup,
      ],
      ['ApiAccessLogGroupName', 'HTTP API access logs', this.httpApi.accessLogGroup],
    ] as const) {
      new CfnOutput(this, outputId, {
        description: `Log group of the ${description}`,
        value: logGroup.logGroupName,
      });
    }
    new CfnOutput(this, 'AlarmTopicArn', {
      description: 'ARN of the SNS topic every alarm notifies (subscribe pagers or chat here)',
      value: ops.topic.topicArn,
    });
    new CfnOutput(this, 'DashboardName', {
      description: 'Name of the CloudWatch operations dashboard',
      value: this.dashboard.dashboard.dashboardName,
    });
    new CfnOutput(this, 'DashboardUrl', {
      description: 'Console URL of the CloudWatch operations dashboard',
      value: this.dashboard.url,
    });
  }
}
