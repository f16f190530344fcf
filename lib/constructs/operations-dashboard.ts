import { Duration, Stack } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { EXECUTION_ITEM_KIND, HOLD_ITEM_KIND } from '../../functions/contract/names';
import { METRICS } from '../../functions/domain/shared/metrics';
import { POISON_CODES, SERVICE_NAMES, serviceMetric, serviceMetrics } from '../service-metrics';

/** Why the worker acknowledged a job without exporting (the `reason` of ExportSkipped). */
const EXPORT_SKIP_REASONS = ['finished', 'past_deadline', 'leased', 'unknown_execution'] as const;

/** Kinds of due items the sweeper settles (its metrics' `kind` dimension). */
const SWEEP_KINDS = [HOLD_ITEM_KIND, EXECUTION_ITEM_KIND] as const;

/** DynamoDB operations the functions call (GetItem, Query, TransactWriteItems, UpdateItem). */
export const TABLE_OPERATIONS = ['GetItem', 'Query', 'TransactWriteItems', 'UpdateItem'] as const;

export type TableOperation = (typeof TABLE_OPERATIONS)[number];

/** Per-operation DynamoDB metric of the ledger table (`TableName` + `Operation`). */
export function tableOperationMetric(
  table: dynamodb.ITable,
  metricName: 'ThrottledRequests' | 'SystemErrors' | 'SuccessfulRequestLatency',
  operation: TableOperation,
  options: { readonly statistic?: string; readonly period?: Duration } = {},
): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: 'AWS/DynamoDB',
    metricName,
    dimensionsMap: { TableName: table.tableName, Operation: operation },
    statistic: options.statistic ?? cloudwatch.Stats.SUM,
    period: options.period ?? Duration.minutes(5),
    label: `${metricName} ${operation}`,
  });
}

export interface OperationsDashboardProps {
  /** Name of the dashboard (unique per account and region). */
  readonly dashboardName: string;
  /** The functions, labelled as they should appear in the graphs. */
  readonly functions: Readonly<Record<string, lambda.IFunction>>;
  /** The outbox dispatcher, for its iterator age. */
  readonly dispatcher: lambda.IFunction;
  /** The journal projector, for its iterator age. */
  readonly journalProjector: lambda.IFunction;
  /** The HTTP API stage (metrics with `ApiId` + `Stage`). */
  readonly stage: apigwv2.IHttpStage;
  /** Main queues, labelled: depth and age of the oldest message. */
  readonly queues: Readonly<Record<string, sqs.IQueue>>;
  /** Dead-letter queues, labelled: depth. */
  readonly deadLetterQueues: Readonly<Record<string, sqs.IQueue>>;
  readonly table: dynamodb.ITable;
  /** Shown in an alarm status widget at the top. */
  readonly alarms: readonly cloudwatch.IAlarm[];
}

const FIVE_MINUTES = Duration.minutes(5);
const WIDE = 12;
const HEIGHT = 6;

/**
 * One CloudWatch dashboard for operators: alarm states first, then the service's own metrics
 * (idempotency, inbox, dead letters by error code, sequence gaps, callbacks, outbox dispatch,
 * the journal, storage retries),
 * then the AWS metrics behind them (API, Lambda, queues, DynamoDB). Every graph sums 5-minute
 * periods, the alarms' period, so a spike reads the same on the dashboard and in the alarm.
 */
export class OperationsDashboard extends Construct {
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: OperationsDashboardProps) {
    super(scope, id);
    const graph = (
      title: string,
      left: cloudwatch.IMetric[],
      extra: Partial<cloudwatch.GraphWidgetProps> = {},
    ) => new cloudwatch.GraphWidget({ title, left, width: WIDE, height: HEIGHT, ...extra });
    const sum = { period: FIVE_MINUTES, statistic: cloudwatch.Stats.SUM };
    const fns = Object.entries(props.functions);

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: props.dashboardName,
      defaultInterval: Duration.hours(6),
    });

    this.dashboard.addWidgets(
      new cloudwatch.AlarmStatusWidget({
        title: 'Alarms',
        alarms: [...props.alarms],
        width: 24,
        height: 4,
      }),
    );

    this.dashboard.addWidgets(
      new cloudwatch.TextWidget({
        markdown:
          '## Service metrics (namespace IdempotentLedger)\nRunbook for every alarm: docs/alarms.md',
        width: 24,
        height: 1,
      }),
    );
    this.dashboard.addWidgets(
      graph('Idempotency: replays and key reuse (ledger-http)', [
        ...serviceMetrics(METRICS.idempotentReplay),
        ...serviceMetrics(METRICS.idempotencyKeyReused),
      ]),
      graph('Ledger events: applied and inbox duplicates (ledger-events)', [
        ...serviceMetrics(METRICS.ledgerEventApplied),
        ...serviceMetrics(METRICS.inboxDuplicate),
      ]),
      // Hot accounts (docs/contract.md §20): how many events commit batched, how often a
      // batched write falls back to one by one.
      graph('Ledger events: batched, and batched writes applied one by one (ledger-events)', [
        ...serviceMetrics(METRICS.ledgerEventsBatched),
        ...serviceMetrics(METRICS.ledgerEventBatchFallback),
      ]),
    );
    this.dashboard.addWidgets(
      graph(
        'Dead-lettered ledger events by errorCode',
        POISON_CODES.map((code) =>
          serviceMetric(METRICS.deadLetter, SERVICE_NAMES.events, {
            dimensions: { errorCode: code },
            label: code,
          }),
        ),
        { stacked: true },
      ),
      graph('Sequence gaps (events and callbacks)', serviceMetrics(METRICS.sequenceGap)),
      graph('Gaps: overdue, waived (docs/contract.md §18)', [
        ...serviceMetrics(METRICS.overdueGaps),
        ...serviceMetrics(METRICS.gapsWaived),
      ]),
    );
    this.dashboard.addWidgets(
      graph('Callbacks: applied, duplicate, stale, superseded', [
        ...serviceMetrics(METRICS.callbackApplied),
        ...serviceMetrics(METRICS.callbackDuplicate),
        ...serviceMetrics(METRICS.callbackStale),
        ...serviceMetrics(METRICS.callbackSuperseded),
      ]),
      graph(
        'Callback signature failures (invalid or expired)',
        serviceMetrics(METRICS.signatureFailure),
      ),
    );
    this.dashboard.addWidgets(
      graph('Outbox: export jobs dispatched and dispatch failures (ledger-outbox-dispatcher)', [
        ...serviceMetrics(METRICS.exportJobDispatched),
        ...serviceMetrics(METRICS.exportJobDispatchFailure),
      ]),
      graph('Outbox dispatcher iterator age (max)', [
        props.dispatcher.metric('IteratorAge', {
          period: FIVE_MINUTES,
          statistic: cloudwatch.Stats.MAXIMUM,
          label: 'iterator age (ms)',
        }),
      ]),
    );
    this.dashboard.addWidgets(
      graph(
        'Journal: records written, already projected, version gaps (ledger-journal-projector)',
        [
          ...serviceMetrics(METRICS.journalRecordsWritten),
          ...serviceMetrics(METRICS.journalAlreadyProjected),
          ...serviceMetrics(METRICS.journalVersionGap),
          ...serviceMetrics(METRICS.journalEventsPublished),
          ...serviceMetrics(METRICS.journalPublishFailure),
        ],
      ),
      graph('Journal projector iterator age (ms, max) and lag (s, max)', [
        props.journalProjector.metric('IteratorAge', {
          period: FIVE_MINUTES,
          statistic: cloudwatch.Stats.MAXIMUM,
          label: 'iterator age (ms)',
        }),
        serviceMetric(METRICS.journalLag, SERVICE_NAMES.journalProjector, {
          label: 'commit to record (s)',
        }).with({ statistic: cloudwatch.Stats.MAXIMUM }),
      ]),
      graph('Reconciler: journal records checked, findings (docs/contract.md §19)', [
        ...serviceMetrics(METRICS.reconciledRecords),
        ...serviceMetrics(METRICS.reconciliationMismatches),
      ]),
    );
    this.dashboard.addWidgets(
      graph('Exports: succeeded, failed, timed out and skipped jobs (ledger-export-worker)', [
        ...serviceMetrics(METRICS.exportSucceeded),
        ...serviceMetrics(METRICS.exportFailed),
        ...serviceMetrics(METRICS.exportTimedOut),
        ...EXPORT_SKIP_REASONS.map((reason) =>
          serviceMetric(METRICS.exportSkipped, SERVICE_NAMES.exportWorker, {
            dimensions: { reason },
            label: `skipped: ${reason}`,
          }),
        ),
      ]),
      graph(
        'Sweeper: settled, already done, failed, and the oldest due age (s, max) by kind',
        SWEEP_KINDS.flatMap((kind) => [
          ...[METRICS.sweepSettled, METRICS.sweepAlreadyDone, METRICS.sweepFailure].map((name) =>
            serviceMetric(name, SERVICE_NAMES.sweeper, {
              dimensions: { kind },
              label: `${name} (${kind})`,
            }),
          ),
          serviceMetric(METRICS.sweepOldestDueAge, SERVICE_NAMES.sweeper, {
            dimensions: { kind },
            label: `oldest due age (${kind})`,
          }).with({ statistic: cloudwatch.Stats.MAXIMUM }),
        ]),
      ),
    );
    this.dashboard.addWidgets(
      graph('Transaction conflict retries', serviceMetrics(METRICS.transactionConflictRetry)),
      graph(
        'Storage throttles (retries and 503 unavailable)',
        serviceMetrics(METRICS.storageThrottle),
      ),
    );
    this.dashboard.addWidgets(
      graph(
        'Events DynamoDB refused as invalid (our bug; redelivered)',
        serviceMetrics(METRICS.storageValidationError),
      ),
    );

    this.dashboard.addWidgets(
      new cloudwatch.TextWidget({ markdown: '## HTTP API and functions', width: 24, height: 1 }),
    );
    this.dashboard.addWidgets(
      graph('HTTP API: requests, 4xx, 5xx', [
        props.stage.metricCount({ ...sum, label: 'requests' }),
        props.stage.metricClientError({ ...sum, label: '4xx' }),
        props.stage.metricServerError({ ...sum, label: '5xx' }),
      ]),
      graph('HTTP API: latency', [
        props.stage.metricLatency({
          period: FIVE_MINUTES,
          statistic: cloudwatch.Stats.p(50),
          label: 'latency p50',
        }),
        props.stage.metricLatency({
          period: FIVE_MINUTES,
          statistic: cloudwatch.Stats.p(99),
          label: 'latency p99',
        }),
        props.stage.metricIntegrationLatency({
          period: FIVE_MINUTES,
          statistic: cloudwatch.Stats.p(99),
          label: 'integration latency p99',
        }),
      ]),
    );
    this.dashboard.addWidgets(
      graph(
        'Lambda errors',
        fns.map(([label, fn]) => fn.metricErrors({ ...sum, label })),
      ),
      graph(
        'Lambda throttles',
        fns.map(([label, fn]) => fn.metricThrottles({ ...sum, label })),
      ),
    );
    this.dashboard.addWidgets(
      graph(
        'Lambda duration p99',
        fns.map(([label, fn]) =>
          fn.metricDuration({ period: FIVE_MINUTES, statistic: cloudwatch.Stats.p(99), label }),
        ),
      ),
      graph(
        'Lambda concurrent executions (max)',
        fns.map(([label, fn]) =>
          fn.metric('ConcurrentExecutions', {
            period: FIVE_MINUTES,
            statistic: cloudwatch.Stats.MAXIMUM,
            label,
          }),
        ),
      ),
    );

    this.dashboard.addWidgets(
      new cloudwatch.TextWidget({ markdown: '## Queues, stream and table', width: 24, height: 1 }),
    );
    this.dashboard.addWidgets(
      graph(
        'Dead-letter queue depth',
        Object.entries(props.deadLetterQueues).map(([label, queue]) =>
          queue.metricApproximateNumberOfMessagesVisible({
            period: Duration.minutes(1),
            statistic: cloudwatch.Stats.MAXIMUM,
            label,
          }),
        ),
      ),
      graph(
        'Queue depth and age of oldest message',
        Object.entries(props.queues).map(([label, queue]) =>
          queue.metricApproximateNumberOfMessagesVisible({
            period: Duration.minutes(1),
            statistic: cloudwatch.Stats.MAXIMUM,
            label: `${label} visible`,
          }),
        ),
        {
          right: Object.entries(props.queues).map(([label, queue]) =>
            queue.metricApproximateAgeOfOldestMessage({
              period: Duration.minutes(1),
              statistic: cloudwatch.Stats.MAXIMUM,
              label: `${label} oldest (s)`,
            }),
          ),
        },
      ),
    );
    this.dashboard.addWidgets(
      graph('DynamoDB throttled requests and system errors by operation', [
        ...TABLE_OPERATIONS.map((op) => tableOperationMetric(props.table, 'ThrottledRequests', op)),
        ...TABLE_OPERATIONS.map((op) => tableOperationMetric(props.table, 'SystemErrors', op)),
      ]),
      graph(
        'DynamoDB successful request latency p99 by operation',
        TABLE_OPERATIONS.map((op) =>
          tableOperationMetric(props.table, 'SuccessfulRequestLatency', op, {
            statistic: cloudwatch.Stats.p(99),
          }),
        ),
      ),
    );
  }

  /** Console URL of the dashboard, in the stack's region. */
  get url(): string {
    const region = Stack.of(this).region;
    return `https://${region}.console.aws.amazon.com/cloudwatch/home?region=${region}#dashboards:name=${this.dashboard.dashboardName}`;
  }
}
