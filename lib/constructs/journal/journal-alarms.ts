import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { METRICS, type MetricName } from '../../../functions/domain/shared/metrics';
import * as text from '../../alarm-catalog';
import { SERVICE_NAMES, serviceMetric } from '../../service-metrics';
import type { OperationsAlarmSpec } from '../operations/operations-alarms';

/** Iterator age at which `journal-projector-behind` fires: seconds are normal, minutes are not. */
const JOURNAL_ITERATOR_AGE_THRESHOLD = Duration.minutes(5);

/** Period of the journal projector's alarms. */
const ALARM_PERIOD = Duration.minutes(5);

const S = text.ALARM_SLUGS;
const sum = { period: ALARM_PERIOD, statistic: cloudwatch.Stats.SUM };
/** A count the projector publishes, over the alarms' period. */
const projectorMetric = (name: MetricName) =>
  serviceMetric(name, SERVICE_NAMES.journalProjector, { period: ALARM_PERIOD });

type JournalSlug =
  | typeof S.journalBehind
  | typeof S.journalVersionGap
  | typeof S.journalPublishFailures
  | typeof S.daySumsFailures
  | typeof S.journalErrors
  | typeof S.reconciliationMismatch
  | typeof S.reconcilerErrors
  | typeof S.journalStuck
  | typeof S.journalHashChain;

type AddAlarm = (
  slug: text.AlarmSlug,
  id: string,
  description: string,
  metric: OperationsAlarmSpec['metric'],
  threshold?: number,
) => cloudwatch.Alarm;

/**
 * The alarms of the journal (docs/contract.md §15) and of the reconciler that audits it (§19),
 * through ServiceAlarms' house style (`add`), in the dashboard's order.
 */
export function journalAlarms(
  add: AddAlarm,
  props: { readonly journalProjector: lambda.IFunction; readonly reconciler: lambda.IFunction },
): Record<JournalSlug, cloudwatch.Alarm> {
  return {
    [S.journalBehind]: add(
      S.journalBehind,
      'JournalIteratorAgeAlarm',
      text.journalBehindDescription(JOURNAL_ITERATOR_AGE_THRESHOLD),
      props.journalProjector.metric('IteratorAge', {
        period: ALARM_PERIOD,
        statistic: cloudwatch.Stats.MAXIMUM,
      }),
      JOURNAL_ITERATOR_AGE_THRESHOLD.toMilliseconds(),
    ),
    // Should never happen: one is a journal that stopped.
    [S.journalVersionGap]: add(
      S.journalVersionGap,
      'JournalVersionGapAlarm',
      text.JOURNAL_VERSION_GAP_DESCRIPTION,
      projectorMetric(METRICS.journalVersionGap),
    ),
    [S.journalPublishFailures]: add(
      S.journalPublishFailures,
      'JournalPublishFailureAlarm',
      text.JOURNAL_PUBLISH_FAILURES_DESCRIPTION,
      projectorMetric(METRICS.journalPublishFailure),
    ),
    [S.daySumsFailures]: add(
      S.daySumsFailures,
      'DaySumsFailureAlarm',
      text.DAY_SUMS_FAILURES_DESCRIPTION,
      projectorMetric(METRICS.daySumsFailure),
    ),
    [S.journalErrors]: add(
      S.journalErrors,
      'JournalProjectorErrorsAlarm',
      text.JOURNAL_ERRORS_DESCRIPTION,
      props.journalProjector.metricErrors(sum),
    ),
    // Any finding: the books disagree with themselves somewhere (docs/contract.md §19).
    [S.reconciliationMismatch]: add(
      S.reconciliationMismatch,
      'ReconciliationMismatchAlarm',
      text.RECONCILIATION_MISMATCH_DESCRIPTION,
      serviceMetric(METRICS.reconciliationMismatches, SERVICE_NAMES.reconciler, {
        period: Duration.hours(1),
      }),
    ),
    // Any broken link: a journal record was edited in the table (docs/contract.md §27).
    [S.journalHashChain]: add(
      S.journalHashChain,
      'JournalHashChainAlarm',
      text.JOURNAL_HASH_CHAIN_DESCRIPTION,
      serviceMetric(METRICS.journalHashChainBreaks, SERVICE_NAMES.reconciler, {
        period: Duration.hours(1),
      }),
    ),
    [S.reconcilerErrors]: add(
      S.reconcilerErrors,
      'ReconcilerErrorsAlarm',
      text.RECONCILER_ERRORS_DESCRIPTION,
      props.reconciler.metricErrors({
        period: Duration.hours(1),
        statistic: cloudwatch.Stats.SUM,
      }),
    ),
    // A journal_version_gap finding: a journal stuck behind its account (docs/contract.md §30).
    [S.journalStuck]: add(
      S.journalStuck,
      'JournalStuckAlarm',
      text.JOURNAL_STUCK_DESCRIPTION,
      serviceMetric(METRICS.journalVersionGapFindings, SERVICE_NAMES.reconciler, {
        period: Duration.hours(1),
      }),
    ),
  };
}
