import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { METRICS } from '../../../functions/domain/shared/metrics';
import * as text from '../../alarm-catalog';
import { SERVICE_NAMES, type ServiceName, serviceMetric } from '../../service-metrics';
import type { OperationsAlarmSpec } from '../operations/operations-alarms';

/** `credit-intake-lag` fires when the lag stays over this (docs/contract.md §24: over 60 s)… */
export const CREDIT_INTAKE_LAG_THRESHOLD_SECONDS = 60;
/** …in this many minutes (§24: for 5 minutes)… */
export const CREDIT_INTAKE_LAG_MINUTES = 5;
/** …of this many consecutive ones: one minute without a datapoint does not hide it. */
export const CREDIT_INTAKE_LAG_WINDOW_MINUTES = 6;

const S = text.ALARM_SLUGS;

type IntakeSlug =
  | typeof S.creditIntakeLag
  | typeof S.creditIntakeErrors
  | typeof S.creditIntakeQueueAge
  | typeof S.setAsideCredits;

/** ServiceAlarms' house style, with the periods of a sustained alarm. */
type AddAlarm = (id: string, spec: OperationsAlarmSpec) => cloudwatch.Alarm;

/**
 * The folder's alarms (docs/contract.md §24) but its DLQ's (which ServiceAlarms builds like every
 * other DLQ alarm): the posting lag, sustained, the queue's age, credits set aside (§36), and the
 * folder's own failures.
 */
export function creditIntakeAlarms(
  add: AddAlarm,
  props: { readonly creditFolder: lambda.IFunction; readonly creditIntakeQueue: sqs.IQueue },
): Record<IntakeSlug, cloudwatch.Alarm> {
  const lagOf = (service: ServiceName) =>
    serviceMetric(METRICS.creditIntakeLag, service, { period: Duration.minutes(1) }).with({
      statistic: cloudwatch.Stats.MAXIMUM,
    });
  return {
    // A gauge, emitted by each folder run that found pending credits and by every sweep while an
    // account stays stranded (docs/contract.md §24, §36: measured from the oldest acceptance, so
    // it fires when the folder never runs): the larger per minute, over the threshold in 5 of 6
    // consecutive minutes. It is emitted only while something waits, so a minute without a
    // datapoint is treated as not breaching: nothing pending is no alarm, and the alarm returns
    // to OK once the account drains (`ignore` would hold ALARM, with no datapoint to follow;
    // `breaching` would fire on an idle ledger). What missing data must not do is hide a stranded
    // credit: the sweep emits once a minute while it waits, and 5 of 6 lets one minute go without
    // (a run dropped by EventBridge, or two runs' datapoints landing in one minute).
    [S.creditIntakeLag]: add('CreditIntakeLagAlarm', {
      slug: S.creditIntakeLag,
      description: text.creditIntakeLagDescription(
        CREDIT_INTAKE_LAG_THRESHOLD_SECONDS,
        CREDIT_INTAKE_LAG_MINUTES,
        CREDIT_INTAKE_LAG_WINDOW_MINUTES,
      ),
      metric: new cloudwatch.MathExpression({
        expression: 'MAX([folder, sweep])',
        usingMetrics: {
          folder: lagOf(SERVICE_NAMES.creditIntake),
          sweep: lagOf(SERVICE_NAMES.sweeper),
        },
        label: 'CreditIntakeLagSeconds (folder, sweep)',
        period: Duration.minutes(1),
      }),
      threshold: CREDIT_INTAKE_LAG_THRESHOLD_SECONDS,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: CREDIT_INTAKE_LAG_WINDOW_MINUTES,
      datapointsToAlarm: CREDIT_INTAKE_LAG_MINUTES,
    }),
    // The folder's feed itself: a message older than the lag threshold, sustained (§31).
    [S.creditIntakeQueueAge]: add('CreditIntakeQueueAgeAlarm', {
      slug: S.creditIntakeQueueAge,
      description: text.creditIntakeQueueAgeDescription(
        CREDIT_INTAKE_LAG_THRESHOLD_SECONDS,
        CREDIT_INTAKE_LAG_MINUTES,
      ),
      metric: props.creditIntakeQueue.metricApproximateAgeOfOldestMessage({
        period: Duration.minutes(1),
        statistic: cloudwatch.Stats.MAXIMUM,
      }),
      threshold: CREDIT_INTAKE_LAG_THRESHOLD_SECONDS,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: CREDIT_INTAKE_LAG_MINUTES,
    }),
    // A credit the folder can never post was set aside (§36): an operator decides (1 in 5 min).
    [S.setAsideCredits]: add('SetAsideCreditsAlarm', {
      slug: S.setAsideCredits,
      description: text.SET_ASIDE_CREDITS_DESCRIPTION,
      metric: serviceMetric(METRICS.setAsideCredits, SERVICE_NAMES.creditIntake),
      threshold: 1,
    }),
    [S.creditIntakeErrors]: add('CreditIntakeErrorsAlarm', {
      slug: S.creditIntakeErrors,
      description: text.CREDIT_INTAKE_ERRORS_DESCRIPTION,
      metric: props.creditFolder.metricErrors({
        period: Duration.minutes(5),
        statistic: cloudwatch.Stats.SUM,
      }),
      threshold: 1,
    }),
  };
}
