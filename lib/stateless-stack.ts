import {
  CrossStackReferences,
  type Duration,
  ReferenceStrength,
  RemovalPolicy,
  Stack,
  type StackProps,
} from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { QUEUE_NAMES } from '../functions/contract/names';
import { WEBHOOK_DLQ_NAME, WEBHOOK_QUEUE_NAME } from '../functions/contract/webhooks';
import type { AlarmSlug } from './alarm-catalog';
import type { LedgerConfig } from './config';
import { LedgerEventsConsumer } from './constructs/events/ledger-events-consumer';
import { OUTBOX_DISPATCH_DEAD_LETTER_QUEUE_NAME } from './constructs/exports/export-job-queues';
import { ExportWorker } from './constructs/exports/export-worker';
import { OutboxDispatcher } from './constructs/exports/outbox-dispatcher';
import { LedgerHttpFunction } from './constructs/http/http-function';
import { LedgerHttpApi } from './constructs/http/ledger-http-api';
import { CreditFolder } from './constructs/intake/credit-folder';
import { JournalProjector } from './constructs/journal/journal-projector';
import { OperationsAlarms } from './constructs/operations/operations-alarms';
import { OperationsDashboard } from './constructs/operations/operations-dashboard';
import { ServiceAlarms } from './constructs/operations/service-alarms';
import { Reconciler } from './constructs/schedules/reconciler';
import { Sweeper } from './constructs/schedules/sweeper';
import { SearchIndexer } from './constructs/search/search-indexer';
import type { LedgerFunctionDefaults } from './constructs/shared/ledger-function';
import { exportEnvironmentOf, serviceEnvironmentOf } from './constructs/shared/service-environment';
import {
  allowWebhookRoutes,
  WebhookDelivery,
  webhookAlarms,
  webhookEnvironment,
} from './constructs/webhooks/webhook-delivery';
import type { StatefulResources } from './stateful-resources';
import { addStatelessOutputs } from './stateless-outputs';

/** Why a role may name `exports/*` (cdk-nag AwsSolutions-IAM5). */
export const EXPORT_OBJECTS_REASON =
  'Export files are named by the service per execution (exports/<taskId>/<executionId>.<csv|jsonl>), so no fixed list of object ARNs exists; the grant is limited to the exports/ prefix of the one export bucket and to the object actions this function needs (the worker writes, the HTTP function reads).';

export type { StatefulResources } from './stateful-resources';

export interface StatelessStackProps extends StackProps {
  /** The data resources, owned by the stateful stack (pass the `StatefulStack`). */
  readonly stateful: StatefulResources;

  /** The validated deployment configuration (`resolveLedgerConfig`, lib/config.ts). */
  readonly config: LedgerConfig;

  /**
   * Prefix of the names this stack gives out: alarms (`<prefix>-<slug>`), the alarm topic
   * (`<prefix>-alarms`) and the dashboard (`<prefix>`).
   * @default - the stack's id
   */
  readonly namePrefix?: string;

  /**
   * Timeout of the events consumer; `eventQueues.visibilityTimeout` must be at least 6 × this.
   * @default EVENTS_CONSUMER_TIMEOUT (30 s)
   */
  readonly eventsConsumerTimeout?: Duration;

  /**
   * Pre-built code for every function instead of bundling `functions/handlers/<name>/handler.ts`. For
   * template-only infra tests; its handler must be `index.handler`.
   * @default - bundle each handler with esbuild
   */
  readonly handlerCode?: lambda.Code;
}

/**
 * Code and API: safe to destroy and redeploy at any time. The HTTP API, the SQS inbox consumer,
 * the outbox dispatcher, the credit folder, the journal projector, the export worker, the sweeper and the reconciler, each as its
 * own construct, and their alarms.
 */
export class StatelessStack extends Stack {
  /** The function behind every HTTP route. */
  readonly httpFunction: LedgerHttpFunction;
  /** The HTTP API and its `$default` stage. */
  readonly httpApi: LedgerHttpApi;
  /** The `ledger-events` consumer (function + SQS event source). */
  readonly eventsConsumer: LedgerEventsConsumer;
  /** The outbox dispatcher (function + DynamoDB stream event source). */
  readonly outboxDispatcher: OutboxDispatcher;
  /** The export worker (function + SQS event source on export-jobs). */
  readonly exportWorker: ExportWorker;
  /** The sweeper (function + one-minute schedule). */
  readonly sweeper: Sweeper;
  /** The reconciler (function + hourly schedule, docs/contract.md §19). */
  readonly reconciler: Reconciler;
  /** The folder (function + SQS event source on credit-intake, docs/contract.md §24). */
  readonly creditFolder: CreditFolder;
  /** The search indexer (function + SQS event source on search-index, docs/contract.md §34). */
  readonly searchIndexer: SearchIndexer;
  /** The journal projector (function + DynamoDB stream event source, the stream's second reader). */
  readonly journalProjector: JournalProjector;
  /** The webhook delivery function (function + SQS event source, docs/contract.md §32). */
  readonly webhookDelivery: WebhookDelivery;
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
    const { table, eventQueues, exportJobQueues, callbackSecret } = props.stateful;
    const { outboxDispatchDeadLetterQueue, exportBucketName, journalTopic } = props.stateful;
    const { gapTopic, creditIntakeQueues, searchIndexQueues, webhooks } = props.stateful;
    const exportBucket = s3.Bucket.fromBucketName(this, 'ExportBucket', exportBucketName);
    const { config } = props;
    const serviceEnvironment = serviceEnvironmentOf(config, table.tableName);
    const exportEnvironment = exportEnvironmentOf(
      config,
      serviceEnvironment,
      exportBucket.bucketName,
    );
    const namePrefix = props.namePrefix ?? id;
    const functionDefaults: LedgerFunctionDefaults = {
      code: props.handlerCode,
      // RetentionDays values are the day counts themselves.
      logRetention: config.logRetentionDays as logs.RetentionDays,
      logRemovalPolicy:
        config.removalPolicy === 'retain' ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    };

    // Created in this scope as 'HttpFunction', as it was deployed: its logical ids stay.
    this.httpFunction = new LedgerHttpFunction(this, 'HttpFunction', {
      functionDefaults,
      table,
      callbackSecret,
      exportBucket,
      // Only the HTTP function serves the journal routes (docs/contract.md §15) and hedges
      // claim reads (§36).
      environment: {
        ...exportEnvironment,
        JOURNAL_READERS: JSON.stringify(config.journalReaders),
        IDEMPOTENCY_HEDGED_READ: config.idempotencyHedgedRead,
        ...webhookEnvironment(webhooks),
      },
      exportObjectsReason: EXPORT_OBJECTS_REASON,
      reservedConcurrentExecutions: config.httpReservedConcurrency,
    });

    allowWebhookRoutes(this.httpFunction, webhooks, table);

    this.httpApi = new LedgerHttpApi(this, 'HttpApi', {
      apiName: `${id}-http`,
      handler: this.httpFunction,
      auth: config.auth,
      throttleRateLimit: config.apiThrottle.rateLimit,
      throttleBurstLimit: config.apiThrottle.burstLimit,
      callbackThrottleRateLimit: config.callbackThrottle.rateLimit,
      callbackThrottleBurstLimit: config.callbackThrottle.burstLimit,
      accessLogRetention: functionDefaults.logRetention,
      accessLogRemovalPolicy: functionDefaults.logRemovalPolicy,
    });

    this.eventsConsumer = new LedgerEventsConsumer(this, 'EventsConsumer', {
      functionDefaults,
      table,
      queues: eventQueues,
      // The sweeper reads the same value: a gap falls due when both say (docs/contract.md §18).
      environment: {
        ...serviceEnvironment,
        GAP_REFETCH_AFTER_SECONDS: String(config.gapRefetchAfterSeconds),
      },
      timeout: props.eventsConsumerTimeout,
      batchSize: config.eventsBatchSize,
      // The consumer's runaway guard: the event source never runs more than this many at once.
      maxConcurrency: config.eventsMaxConcurrency,
    });

    this.outboxDispatcher = new OutboxDispatcher(this, 'OutboxDispatcher', {
      functionDefaults,
      table,
      exportJobsQueue: exportJobQueues.queue,
      creditIntakeQueue: creditIntakeQueues.queue,
      deadLetterQueue: outboxDispatchDeadLetterQueue,
      reservedConcurrentExecutions: config.dispatcherReservedConcurrency,
      intakeStrandedAfterSeconds: config.intakeStrandedAfterSeconds,
    });

    this.creditFolder = new CreditFolder(this, 'CreditFolder', {
      functionDefaults,
      table,
      queues: creditIntakeQueues,
      environment: serviceEnvironment,
    });

    this.exportWorker = new ExportWorker(this, 'ExportWorker', {
      functionDefaults,
      table,
      jobs: exportJobQueues,
      bucket: exportBucket,
      callbackSecret,
      apiUrl: this.httpApi.url,
      environment: exportEnvironment,
      executionTimeoutSeconds: config.exportExecutionTimeoutSeconds,
      exportObjectsReason: EXPORT_OBJECTS_REASON,
    });

    this.journalProjector = new JournalProjector(this, 'JournalProjector', {
      functionDefaults,
      table,
      topic: journalTopic,
      stage: config.stage,
      searchIndexQueue: searchIndexQueues.queue,
    });

    this.searchIndexer = new SearchIndexer(this, 'SearchIndexer', {
      functionDefaults,
      table,
      queues: searchIndexQueues,
      environment: serviceEnvironment,
    });

    this.sweeper = new Sweeper(this, 'Sweeper', {
      functionDefaults,
      table,
      environment: {
        ...serviceEnvironment,
        GAP_REFETCH_AFTER_SECONDS: String(config.gapRefetchAfterSeconds),
        INTAKE_STRANDED_AFTER_SECONDS: String(config.intakeStrandedAfterSeconds),
        STAGE: config.stage,
      },
      gapTopic,
      creditIntakeQueue: creditIntakeQueues.queue,
    });

    this.reconciler = new Reconciler(this, 'Reconciler', {
      functionDefaults,
      table,
      environment: serviceEnvironment,
    });

    this.webhookDelivery = new WebhookDelivery(this, 'WebhookDelivery', {
      functionDefaults,
      table,
      resources: webhooks,
      environment: serviceEnvironment,
      stage: config.stage,
    });

    // Every alarm notifies the topic (ALARM and OK); runbook in docs/alarms.md.
    this.operations = new OperationsAlarms(this, 'Operations', {
      namePrefix,
      email: config.alarmEmail,
    });
    this.alarms = new ServiceAlarms(this, 'ServiceAlarms', {
      operations: this.operations,
      httpFunction: this.httpFunction,
      eventsConsumer: this.eventsConsumer.function,
      outboxDispatcher: this.outboxDispatcher.function,
      exportWorker: this.exportWorker.function,
      sweeper: this.sweeper.function,
      journalProjector: this.journalProjector.function,
      reconciler: this.reconciler.function,
      creditFolder: this.creditFolder.function,
      stage: this.httpApi.stage,
      table,
      eventsDeadLetterQueue: eventQueues.deadLetterQueue,
      exportJobsDeadLetterQueue: exportJobQueues.deadLetterQueue,
      outboxDispatchDeadLetterQueue,
      creditIntakeDeadLetterQueue: creditIntakeQueues.deadLetterQueue,
      searchIndexer: this.searchIndexer.function,
      searchIndexDeadLetterQueue: searchIndexQueues.deadLetterQueue,
      creditIntakeQueue: creditIntakeQueues.queue,
      api5xxThreshold: config.api5xxThreshold,
      gapRefetchAfterSeconds: config.gapRefetchAfterSeconds,
    }).alarms;
    webhookAlarms(this.operations, this, webhooks);

    this.dashboard = new OperationsDashboard(this, 'Dashboard', {
      dashboardName: namePrefix,
      functions: {
        'ledger-http': this.httpFunction,
        'ledger-events': this.eventsConsumer.function,
        'outbox-dispatcher': this.outboxDispatcher.function,
        'export-worker': this.exportWorker.function,
        'ledger-sweeper': this.sweeper.function,
        reconciler: this.reconciler.function,
        'journal-projector': this.journalProjector.function,
        'credit-intake': this.creditFolder.function,
        'webhook-delivery': this.webhookDelivery.function,
      },
      dispatcher: this.outboxDispatcher.function,
      journalProjector: this.journalProjector.function,
      stage: this.httpApi.stage,
      queues: {
        [QUEUE_NAMES.ledgerEvents]: eventQueues.queue,
        [QUEUE_NAMES.exportJobs]: exportJobQueues.queue,
        [QUEUE_NAMES.creditIntake]: creditIntakeQueues.queue,
        [WEBHOOK_QUEUE_NAME]: webhooks.queues.queue,
      },
      deadLetterQueues: {
        [QUEUE_NAMES.ledgerEventsDeadLetter]: eventQueues.deadLetterQueue,
        [QUEUE_NAMES.exportJobsDeadLetter]: exportJobQueues.deadLetterQueue,
        [OUTBOX_DISPATCH_DEAD_LETTER_QUEUE_NAME]: outboxDispatchDeadLetterQueue,
        [QUEUE_NAMES.creditIntakeDeadLetter]: creditIntakeQueues.deadLetterQueue,
        [WEBHOOK_DLQ_NAME]: webhooks.queues.deadLetterQueue,
      },
      table,
      alarms: this.operations.alarms,
    });

    addStatelessOutputs(this);
  }
}
