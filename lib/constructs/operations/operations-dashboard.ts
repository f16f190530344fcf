import { Duration, Stack } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { serviceMetricRows } from './dashboard-service-rows';

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
    for (const row of serviceMetricRows(props, graph)) this.dashboard.addWidgets(...row);

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
