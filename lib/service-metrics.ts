import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type { PoisonCode } from '../functions/core/event-service';
import { METRICS, type MetricName } from '../functions/observability/metrics';

/**
 * The functions' own metrics, as the dashboard and the alarms read them. The functions publish
 * them with Powertools Metrics as CloudWatch EMF log lines (no API calls).
 */

/** `METRICS_NAMESPACE` of `functions/observability/powertools.ts` (an infra test keeps them equal). */
export const LEDGER_METRICS_NAMESPACE = 'IdempotentLedger';

/**
 * The `service` dimension of each function: Powertools adds it to every metric from the service
 * name the handler passes to `lambdaTelemetry` (an infra test reads the handlers to keep these
 * equal).
 */
export const SERVICE_NAMES = {
  http: 'ledger-http',
  events: 'ledger-events',
  dispatcher: 'ledger-outbox-dispatcher',
} as const;

export type ServiceName = (typeof SERVICE_NAMES)[keyof typeof SERVICE_NAMES];

/**
 * The `errorCode` values of `DeadLetter` (dimensions `service`, `errorCode`): the consumer's
 * permanent failures. Exhausted redeliveries reach the DLQ through the redrive policy and are
 * not counted here; the DLQ depth shows them.
 */
export const POISON_CODES = [
  'invalid_json',
  'schema_invalid',
  'unknown_account',
  'currency_mismatch',
  'insufficient_funds',
  'payment_id_conflict',
] as const satisfies readonly PoisonCode[];

/** Compile-time check the other way round: fails to type-check if a PoisonCode is missing above. */
export type PoisonCodesListed = AssertNever<Exclude<PoisonCode, (typeof POISON_CODES)[number]>>;
type AssertNever<T extends never> = T;

/** Which services publish each metric (what the code emits today). */
export const METRIC_SERVICES: Readonly<Record<MetricName, readonly ServiceName[]>> = {
  [METRICS.idempotentReplay]: [SERVICE_NAMES.http],
  [METRICS.idempotencyKeyReused]: [SERVICE_NAMES.http],
  [METRICS.inboxDuplicate]: [SERVICE_NAMES.events],
  [METRICS.deadLetter]: [SERVICE_NAMES.events],
  [METRICS.sequenceGap]: [SERVICE_NAMES.http, SERVICE_NAMES.events],
  [METRICS.callbackApplied]: [SERVICE_NAMES.http],
  [METRICS.callbackDuplicate]: [SERVICE_NAMES.http],
  [METRICS.callbackStale]: [SERVICE_NAMES.http],
  [METRICS.callbackSuperseded]: [SERVICE_NAMES.http],
  [METRICS.signatureFailure]: [SERVICE_NAMES.http],
  [METRICS.transactionConflictRetry]: [SERVICE_NAMES.http, SERVICE_NAMES.events],
  [METRICS.storageThrottle]: [SERVICE_NAMES.http, SERVICE_NAMES.events],
  [METRICS.ledgerEventApplied]: [SERVICE_NAMES.events],
  [METRICS.exportJobDispatched]: [SERVICE_NAMES.dispatcher],
  [METRICS.exportJobDispatchFailure]: [SERVICE_NAMES.dispatcher],
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
