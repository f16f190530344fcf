import { Duration } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import {
  DEFAULT_GAP_REFETCH_AFTER_SECONDS,
  GAP_OVERDUE_FACTOR,
} from '../../../functions/contract/gaps';
import { EXECUTION_ITEM_KIND, HOLD_ITEM_KIND } from '../../../functions/contract/names';
import { METRICS } from '../../../functions/domain/shared/metrics';
import * as text from '../../alarm-catalog';
import { SERVICE_NAMES, serviceMetric, sumOfSparse } from '../../service-metrics';
import { DEFAULT_OUTBOX_MAX_RECORD_AGE } from '../exports/outbox-dispatcher';
import { creditIntakeAlarms } from '../intake/credit-intake-alarms';
import { journalAlarms } from '../journal/journal-alarms';
import { searchAlarms } from '../search/search-alarms';
import type { OperationsAlarmSpec, OperationsAlarms } from './operations-alarms';
import { TABLE_OPERATIONS, tableOperationMetric } from './operations-dashboard';

/** Iterator age at which the dispatcher's `outbox-dispatcher-behind` alarm fires. */
const OUTBOX_ITERATOR_AGE_THRESHOLD = Duration.minutes(10);

/** How long past its deadline an execution may stay non-terminal before `executions-overdue`. */
const OVERDUE_EXECUTION_THRESHOLD = Duration.minutes(5);

/** Period of the function, API and table alarms. */
const ALARM_PERIOD = Duration.minutes(5);

/** StorageThrottle counts (retries + 503s) in 5 minutes that raise `storage-throttle-retries`. */
const STORAGE_THROTTLE_THRESHOLD = 10;

/**
 * Seconds an expired hold may wait for its release before `sweeper-behind` fires: the schedule
 * (60 s) plus a run (at most 60 s), plus one more minute of slack.
 */
const SWEEPER_BEHIND_SECONDS = 180;

export interface ServiceAlarmsProps {
  /** The alarm topic and house style every alarm goes through. */
  readonly operations: OperationsAlarms;
  readonly httpFunction: lambda.IFunction;
  readonly eventsConsumer: lambda.IFunction;
  readonly outboxDispatcher: lambda.IFunction;
  readonly exportWorker: lambda.IFunction;
  readonly sweeper: lambda.IFunction;
  readonly journalProjector: lambda.IFunction;
  readonly reconciler: lambda.IFunction;
  /** The folder (docs/contract.md §24). */
  readonly creditFolder: lambda.IFunction;
  /** The HTTP API stage (its `5xx` metric). */
  readonly stage: apigwv2.IHttpStage;
  readonly table: dynamodb.ITable;
  readonly eventsDeadLetterQueue: sqs.IQueue;
  readonly exportJobsDeadLetterQueue: sqs.IQueue;
  readonly outboxDispatchDeadLetterQueue: sqs.IQueue;
  readonly creditIntakeDeadLetterQueue: sqs.IQueue;
  /** The search indexer and its DLQ (docs/contract.md §34). */
  readonly searchIndexer: lambda.IFunction;
  readonly searchIndexDeadLetterQueue: sqs.IQueue;
  /** `credit-intake` itself: its oldest message's age is alarmed (docs/contract.md §24). */
  readonly creditIntakeQueue: sqs.IQueue;
  /** 5xx responses of the HTTP API in 5 minutes that raise `api-5xx-responses`. */
  readonly api5xxThreshold: number;
  /**
   * The deployment's `GAP_REFETCH_AFTER_SECONDS` (docs/contract.md §18): event-gaps-overdue says
   * a gap is overdue at GAP_OVERDUE_FACTOR times it.
   * @default DEFAULT_GAP_REFETCH_AFTER_SECONDS (300)
   */
  readonly gapRefetchAfterSeconds?: number;
}

const S = text.ALARM_SLUGS;
const sum = { period: ALARM_PERIOD, statistic: cloudwatch.Stats.SUM };

/**
 * Every alarm of the service, one line each, by slug (docs/alarms.md has a section per slug).
 * A new alarm is a slug in `ALARM_SLUGS`, a runbook section and one line below.
 *
 * The alarms are created in this construct's scope (the stack), not under it: their logical ids
 * predate this construct, and an alarm with a fixed name cannot be replaced in place.
 */
export class ServiceAlarms extends Construct {
  readonly alarms: Readonly<Record<text.AlarmSlug, cloudwatch.Alarm>>;
  private readonly scope: Construct;
  private readonly operations: OperationsAlarms;

  constructor(scope: Construct, id: string, props: ServiceAlarmsProps) {
    super(scope, id);
    this.scope = scope;
    this.operations = props.operations;
    const { httpFunction: http, eventsConsumer: events, outboxDispatcher: dispatcher } = props;
    const threshold5xx = props.api5xxThreshold;
    // Creation order is the order of the dashboard's alarm status widget.
    this.alarms = {
      [S.eventsDeadLetters]: this.deadLetters(
        S.eventsDeadLetters,
        'EventsDeadLetterAlarm',
        props.eventsDeadLetterQueue,
        text.EVENTS_DLQ_ALARM_DESCRIPTION,
      ),
      [S.exportJobsDeadLetters]: this.deadLetters(
        S.exportJobsDeadLetters,
        'ExportJobsDeadLetterAlarm',
        props.exportJobsDeadLetterQueue,
        text.EXPORT_JOBS_DLQ_ALARM_DESCRIPTION,
      ),
      [S.outboxDispatchDeadLetters]: this.deadLetters(
        S.outboxDispatchDeadLetters,
        'OutboxDispatchDeadLetterAlarm',
        props.outboxDispatchDeadLetterQueue,
        text.OUTBOX_DISPATCH_DLQ_ALARM_DESCRIPTION,
      ),
      // Nothing reaches the DLQ for up to maxRecordAge: this is the early warning.
      [S.outboxIteratorAge]: this.add(
        S.outboxIteratorAge,
        'OutboxIteratorAgeAlarm',
        text.outboxIteratorAgeDescription(
          OUTBOX_ITERATOR_AGE_THRESHOLD,
          DEFAULT_OUTBOX_MAX_RECORD_AGE,
        ),
        dispatcher.metric('IteratorAge', {
          period: ALARM_PERIOD,
          statistic: cloudwatch.Stats.MAXIMUM,
        }),
        OUTBOX_ITERATOR_AGE_THRESHOLD.toMilliseconds(),
      ),
      [S.httpErrors]: this.add(
        S.httpErrors,
        'HttpFunctionErrorsAlarm',
        text.HTTP_ERRORS_DESCRIPTION,
        http.metricErrors(sum),
      ),
      [S.httpThrottles]: this.add(
        S.httpThrottles,
        'HttpFunctionThrottlesAlarm',
        text.throttlesDescription('HTTP function (ledger-http)', text.HTTP_THROTTLE_EFFECT),
        http.metricThrottles(sum),
      ),
      [S.eventsErrors]: this.add(
        S.eventsErrors,
        'EventsConsumerErrorsAlarm',
        text.EVENTS_ERRORS_DESCRIPTION,
        events.metricErrors(sum),
      ),
      [S.eventsThrottles]: this.add(
        S.eventsThrottles,
        'EventsConsumerThrottlesAlarm',
        text.throttlesDescription('ledger-events consumer', text.EVENTS_THROTTLE_EFFECT),
        events.metricThrottles(sum),
      ),
      [S.dispatcherErrors]: this.add(
        S.dispatcherErrors,
        'OutboxDispatcherErrorsAlarm',
        text.DISPATCHER_ERRORS_DESCRIPTION,
        dispatcher.metricErrors(sum),
      ),
      [S.dispatcherThrottles]: this.add(
        S.dispatcherThrottles,
        'OutboxDispatcherThrottlesAlarm',
        text.throttlesDescription('outbox dispatcher', text.DISPATCHER_THROTTLE_EFFECT),
        dispatcher.metricThrottles(sum),
      ),
      // HTTP API metric `5xx` with dimensions ApiId and Stage.
      [S.api5xx]: this.add(
        S.api5xx,
        'Api5xxAlarm',
        text.api5xxDescription(threshold5xx),
        props.stage.metricServerError(sum),
        threshold5xx,
      ),
      [S.tableThrottles]: this.add(
        S.tableThrottles,
        'TableThrottledRequestsAlarm',
        text.tableThrottlesDescription(TABLE_OPERATIONS),
        tableMetric(props.table, 'ThrottledRequests'),
      ),
      [S.tableSystemErrors]: this.add(
        S.tableSystemErrors,
        'TableSystemErrorsAlarm',
        text.tableSystemErrorsDescription(TABLE_OPERATIONS),
        tableMetric(props.table, 'SystemErrors'),
      ),
      [S.storageThrottle]: this.add(
        S.storageThrottle,
        'StorageThrottleAlarm',
        text.storageThrottleDescription(STORAGE_THROTTLE_THRESHOLD),
        storageThrottles(),
        STORAGE_THROTTLE_THRESHOLD,
      ),
      // Our bug, never the producer's (docs/contract.md §6, §13): one is enough.
      [S.storageValidation]: this.add(
        S.storageValidation,
        'StorageValidationErrorAlarm',
        text.STORAGE_VALIDATION_DESCRIPTION,
        serviceMetric(METRICS.storageValidationError, SERVICE_NAMES.events, {
          period: ALARM_PERIOD,
        }),
      ),
      [S.exportWorkerErrors]: this.add(
        S.exportWorkerErrors,
        'ExportWorkerErrorsAlarm',
        text.EXPORT_WORKER_ERRORS_DESCRIPTION,
        props.exportWorker.metricErrors(sum),
      ),
      [S.sweeperErrors]: this.add(
        S.sweeperErrors,
        'SweeperErrorsAlarm',
        text.SWEEPER_ERRORS_DESCRIPTION,
        props.sweeper.metricErrors(sum),
      ),
      // The sweeper reports, per kind, how long the oldest item it saw had been due.
      [S.overdueExecutions]: this.add(
        S.overdueExecutions,
        'OverdueExecutionsAlarm',
        text.overdueExecutionsDescription(OVERDUE_EXECUTION_THRESHOLD),
        serviceMetric(METRICS.sweepOldestDueAge, SERVICE_NAMES.sweeper, {
          period: ALARM_PERIOD,
          dimensions: { kind: EXECUTION_ITEM_KIND },
        }).with({ statistic: cloudwatch.Stats.MAXIMUM }),
        OVERDUE_EXECUTION_THRESHOLD.toSeconds(),
      ),
      // The oldest unreleased expired hold, as each run finds it (a gauge: its maximum).
      [S.sweeperBehind]: this.add(
        S.sweeperBehind,
        'SweeperBehindAlarm',
        text.sweeperBehindDescription(SWEEPER_BEHIND_SECONDS),
        serviceMetric(METRICS.sweepOldestDueAge, SERVICE_NAMES.sweeper, {
          dimensions: { kind: HOLD_ITEM_KIND },
          period: ALARM_PERIOD,
        }).with({ statistic: cloudwatch.Stats.MAXIMUM }),
        SWEEPER_BEHIND_SECONDS,
      ),
      // Every overdue gap stays due, so each sweep counts them all: any is one too many.
      [S.eventGapsOverdue]: this.add(
        S.eventGapsOverdue,
        'EventGapsOverdueAlarm',
        text.eventGapsOverdueDescription(
          GAP_OVERDUE_FACTOR * (props.gapRefetchAfterSeconds ?? DEFAULT_GAP_REFETCH_AFTER_SECONDS),
        ),
        serviceMetric(METRICS.overdueGaps, SERVICE_NAMES.sweeper, {
          period: ALARM_PERIOD,
        }).with({ statistic: cloudwatch.Stats.MAXIMUM }),
      ),
      ...journalAlarms((...args) => this.add(...args), props),
      [S.creditIntakeDeadLetters]: this.deadLetters(
        S.creditIntakeDeadLetters,
        'CreditIntakeDeadLetterAlarm',
        props.creditIntakeDeadLetterQueue,
        text.CREDIT_INTAKE_DLQ_ALARM_DESCRIPTION,
      ),
      ...creditIntakeAlarms((id, spec) => this.operations.addAlarm(this.scope, id, spec), props),
      ...searchAlarms((id, spec) => this.operations.addAlarm(this.scope, id, spec), props),
    };
  }

  /** An alarm in the house style (see {@link OperationsAlarms.addAlarm}); fires at `threshold`. */
  private add(
    slug: text.AlarmSlug,
    id: string,
    description: string,
    metric: OperationsAlarmSpec['metric'],
    threshold = 1,
  ): cloudwatch.Alarm {
    return this.operations.addAlarm(this.scope, id, { slug, description, metric, threshold });
  }

  /**
   * Fires as soon as a dead-letter queue holds a message: the `Maximum` of
   * `ApproximateNumberOfMessagesVisible` per minute (SQS publishes it every minute, and stops
   * for an idle, empty queue, which missing-data-not-breaching covers).
   */
  private deadLetters(slug: text.AlarmSlug, id: string, queue: sqs.IQueue, description: string) {
    const metric = queue.metricApproximateNumberOfMessagesVisible({
      period: Duration.minutes(1),
      statistic: cloudwatch.Stats.MAXIMUM,
    });
    return this.operations.addAlarm(new Construct(this.scope, id), 'Alarm', {
      slug,
      description,
      metric,
      threshold: 1,
    });
  }
}

/** `metricName` of the ledger table summed over every operation the functions call. */
function tableMetric(table: dynamodb.ITable, metricName: 'ThrottledRequests' | 'SystemErrors') {
  const byOperation = TABLE_OPERATIONS.map((operation) => [
    operation.charAt(0).toLowerCase() + operation.slice(1),
    tableOperationMetric(table, metricName, operation, { period: ALARM_PERIOD }),
  ]);
  return sumOfSparse(Object.fromEntries(byOperation), {
    label: `${metricName} (all operations)`,
    period: ALARM_PERIOD,
  });
}

/** The functions' own StorageThrottle count (EMF), over every service that publishes it. */
function storageThrottles() {
  return sumOfSparse(
    {
      http: serviceMetric(METRICS.storageThrottle, SERVICE_NAMES.http),
      events: serviceMetric(METRICS.storageThrottle, SERVICE_NAMES.events),
      sweeper: serviceMetric(METRICS.storageThrottle, SERVICE_NAMES.sweeper),
      journal: serviceMetric(METRICS.storageThrottle, SERVICE_NAMES.journalProjector),
      creditIntake: serviceMetric(METRICS.storageThrottle, SERVICE_NAMES.creditIntake),
    },
    { label: 'StorageThrottle (all services)', period: ALARM_PERIOD },
  );
}
