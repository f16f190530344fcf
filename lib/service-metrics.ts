import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import {
  METRICS,
  METRICS_NAMESPACE,
  type MetricName,
  SERVICE_NAMES,
  type ServiceName,
} from '../functions/domain/shared/metrics';
import { POISON_CODES } from '../functions/handlers/events/poison';

/**
 * The functions' own metrics, as the dashboard and the alarms read them. The functions publish
 * them with Powertools Metrics as CloudWatch EMF log lines (no API calls).
 */

/** The namespace, service dimensions and poison codes come from the functions themselves. */
export const LEDGER_METRICS_NAMESPACE = METRICS_NAMESPACE;
export { POISON_CODES, SERVICE_NAMES, type ServiceName };

/** Which services publish each metric (what the code emits today). */
const METRIC_SERVICES: Readonly<Record<MetricName, readonly ServiceName[]>> = {
  [METRICS.webhookDelivered]: [SERVICE_NAMES.webhooks],
  [METRICS.webhookAttemptFailed]: [SERVICE_NAMES.webhooks],
  [METRICS.webhookDeliveryFailed]: [SERVICE_NAMES.webhooks],
  [METRICS.webhookEndpointDisabled]: [SERVICE_NAMES.webhooks],
  [METRICS.idempotentReplay]: [SERVICE_NAMES.http],
  [METRICS.idempotencyKeyReused]: [SERVICE_NAMES.http],
  [METRICS.inboxDuplicate]: [SERVICE_NAMES.events],
  [METRICS.deadLetter]: [SERVICE_NAMES.events],
  [METRICS.sequenceGap]: [SERVICE_NAMES.http, SERVICE_NAMES.events],
  [METRICS.overdueGaps]: [SERVICE_NAMES.sweeper],
  [METRICS.gapsWaived]: [SERVICE_NAMES.events],
  [METRICS.callbackApplied]: [SERVICE_NAMES.http],
  [METRICS.callbackDuplicate]: [SERVICE_NAMES.http],
  [METRICS.callbackStale]: [SERVICE_NAMES.http],
  [METRICS.callbackSuperseded]: [SERVICE_NAMES.http],
  [METRICS.signatureFailure]: [SERVICE_NAMES.http],
  [METRICS.transactionConflictRetry]: [
    SERVICE_NAMES.http,
    SERVICE_NAMES.events,
    SERVICE_NAMES.sweeper,
    SERVICE_NAMES.journalProjector,
    SERVICE_NAMES.creditIntake,
  ],
  [METRICS.storageThrottle]: [
    SERVICE_NAMES.http,
    SERVICE_NAMES.events,
    SERVICE_NAMES.sweeper,
    SERVICE_NAMES.journalProjector,
    SERVICE_NAMES.creditIntake,
  ],
  [METRICS.storageValidationError]: [SERVICE_NAMES.events],
  [METRICS.ledgerEventApplied]: [SERVICE_NAMES.events],
  [METRICS.ledgerEventsBatched]: [SERVICE_NAMES.events],
  [METRICS.ledgerEventBatchFallback]: [SERVICE_NAMES.events],
  [METRICS.exportJobDispatched]: [SERVICE_NAMES.dispatcher],
  [METRICS.exportJobDispatchFailure]: [SERVICE_NAMES.dispatcher],
  [METRICS.exportSucceeded]: [SERVICE_NAMES.exportWorker],
  [METRICS.exportSkipped]: [SERVICE_NAMES.exportWorker],
  [METRICS.exportFailed]: [SERVICE_NAMES.exportWorker],
  [METRICS.exportTimedOut]: [SERVICE_NAMES.exportWorker],
  [METRICS.sweepSettled]: [SERVICE_NAMES.sweeper],
  [METRICS.sweepAlreadyDone]: [SERVICE_NAMES.sweeper],
  [METRICS.sweepFailure]: [SERVICE_NAMES.sweeper],
  [METRICS.sweepOldestDueAge]: [SERVICE_NAMES.sweeper],
  [METRICS.journalRecordsWritten]: [SERVICE_NAMES.journalProjector],
  [METRICS.journalAlreadyProjected]: [SERVICE_NAMES.journalProjector],
  [METRICS.journalVersionGap]: [SERVICE_NAMES.journalProjector],
  [METRICS.journalEventsPublished]: [SERVICE_NAMES.journalProjector],
  [METRICS.journalPublishFailure]: [SERVICE_NAMES.journalProjector],
  [METRICS.journalLag]: [SERVICE_NAMES.journalProjector],
  [METRICS.daySumsFailure]: [SERVICE_NAMES.journalProjector],
  [METRICS.monthsReadWhole]: [SERVICE_NAMES.http],
  [METRICS.reconciliationMismatches]: [SERVICE_NAMES.reconciler],
  [METRICS.reconciledRecords]: [SERVICE_NAMES.reconciler],
  [METRICS.journalVersionGapFindings]: [SERVICE_NAMES.reconciler],
  [METRICS.journalHashChainBreaks]: [SERVICE_NAMES.reconciler],
  // The folder's runs, and the sweep's stranded accounts (docs/contract.md §24).
  [METRICS.creditIntakeLag]: [SERVICE_NAMES.creditIntake, SERVICE_NAMES.sweeper],
  [METRICS.creditsPosted]: [SERVICE_NAMES.creditIntake],
  [METRICS.setAsideCredits]: [SERVICE_NAMES.creditIntake],
  [METRICS.creditIntakeNotified]: [SERVICE_NAMES.dispatcher],
};

export interface ServiceMetricOptions {
  /** @default Duration.minutes(5) */
  readonly period?: Duration;
  /** Extra dimensions, e.g. `{ errorCode: 'invalid_json' }` for `DeadLetter`. */
  readonly dimensions?: Readonly<Record<string, string>>;
  /** @default - `<metric> (<service>)` */
  readonly label?: string;
}

/** The sum of `name` as published by `service`. */
export function serviceMetric(
  name: MetricName,
  service: ServiceName,
  options: ServiceMetricOptions = {},
): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: LEDGER_METRICS_NAMESPACE,
    metricName: name,
    dimensionsMap: { service, ...options.dimensions },
    statistic: cloudwatch.Stats.SUM,
    period: options.period ?? Duration.minutes(5),
    label: options.label ?? `${name} (${service})`,
  });
}

/** `name` from every service that publishes it, one metric per service. */
export function serviceMetrics(name: MetricName, options: ServiceMetricOptions = {}) {
  return METRIC_SERVICES[name].map((service) => serviceMetric(name, service, options));
}

/**
 * The sum of several sparse metrics as one alarmable series. Each term is `FILL(m, 0)`: a plain
 * `m1 + m2` has no value at a timestamp where either metric has none, so a throttle on one
 * operation alone would never show.
 */
export function sumOfSparse(
  metrics: Readonly<Record<string, cloudwatch.IMetric>>,
  options: { readonly label: string; readonly period?: Duration },
): cloudwatch.MathExpression {
  return new cloudwatch.MathExpression({
    expression: Object.keys(metrics)
      .map((id) => `FILL(${id}, 0)`)
      .join(' + '),
    usingMetrics: { ...metrics },
    label: options.label,
    period: options.period ?? Duration.minutes(5),
  });
}
