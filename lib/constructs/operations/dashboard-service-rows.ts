import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { EXECUTION_ITEM_KIND, HOLD_ITEM_KIND } from '../../../functions/contract/names';
import { METRICS } from '../../../functions/domain/shared/metrics';
import { POISON_CODES, SERVICE_NAMES, serviceMetric, serviceMetrics } from '../../service-metrics';

/** Why the worker acknowledged a job without exporting (the `reason` of ExportSkipped). */
const EXPORT_SKIP_REASONS = ['finished', 'past_deadline', 'leased', 'unknown_execution'] as const;

/** Kinds of due items the sweeper settles (its metrics' `kind` dimension). */
const SWEEP_KINDS = [HOLD_ITEM_KIND, EXECUTION_ITEM_KIND] as const;

/** The dashboard's period: the alarms' own. */
const FIVE_MINUTES = Duration.minutes(5);

type Graph = (
  title: string,
  left: cloudwatch.IMetric[],
  extra?: Partial<cloudwatch.GraphWidgetProps>,
) => cloudwatch.GraphWidget;

/**
 * The dashboard's service-metric rows (namespace IdempotentLedger), one array per row, in the
 * order operators read them: idempotency and events, dead letters and gaps, callbacks and the
 * outbox, the journal and the reconciler, deferred credits, exports and the sweeper, storage
 * retries.
 */
export function serviceMetricRows(
  props: { readonly dispatcher: lambda.IFunction; readonly journalProjector: lambda.IFunction },
  graph: Graph,
): cloudwatch.IWidget[][] {
  return [
    [
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
    ],
    [
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
    ],
    [
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
    ],
    [
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
    ],
    [
      graph(
        'Journal: records written, already projected, version gaps, day sums failed; edge months read whole (ledger-http)',
        [
          ...serviceMetrics(METRICS.journalRecordsWritten),
          ...serviceMetrics(METRICS.journalAlreadyProjected),
          ...serviceMetrics(METRICS.journalVersionGap),
          ...serviceMetrics(METRICS.journalEventsPublished),
          ...serviceMetrics(METRICS.journalPublishFailure),
          ...serviceMetrics(METRICS.daySumsFailure),
          ...serviceMetrics(METRICS.monthsReadWhole),
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
      graph('Reconciler: journal records checked, findings, hash chain breaks (§19, §27)', [
        ...serviceMetrics(METRICS.reconciledRecords),
        ...serviceMetrics(METRICS.reconciliationMismatches),
        ...serviceMetrics(METRICS.journalVersionGapFindings),
        ...serviceMetrics(METRICS.journalHashChainBreaks),
      ]),
    ],
    [
      // Deferred credits (docs/contract.md §24, §36): what the dispatcher fed, what the folder
      // posted and what it set aside.
      graph('Deferred credits: accounts notified, credits posted, set aside', [
        ...serviceMetrics(METRICS.creditIntakeNotified),
        ...serviceMetrics(METRICS.creditsPosted),
        ...serviceMetrics(METRICS.setAsideCredits),
      ]),
      graph('Deferred credits: oldest pending credit found (s, max; alarm credit-intake-lag)', [
        serviceMetric(METRICS.creditIntakeLag, SERVICE_NAMES.creditIntake, {
          period: Duration.minutes(1),
          label: 'oldest pending credit (s)',
        }).with({ statistic: cloudwatch.Stats.MAXIMUM }),
      ]),
    ],
    [
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
    ],
    [
      // Webhooks (docs/contract.md §32): attempts, deliveries that ran out, endpoints disabled.
      graph('Webhooks: delivered, failed attempts, failed deliveries, endpoints disabled', [
        ...serviceMetrics(METRICS.webhookDelivered),
        ...serviceMetrics(METRICS.webhookAttemptFailed),
        ...serviceMetrics(METRICS.webhookDeliveryFailed),
        ...serviceMetrics(METRICS.webhookEndpointDisabled),
      ]),
    ],
    [
      graph('Transaction conflict retries', serviceMetrics(METRICS.transactionConflictRetry)),
      graph(
        'Storage throttles (retries and 503 unavailable)',
        serviceMetrics(METRICS.storageThrottle),
      ),
    ],
    [
      graph(
        'Events DynamoDB refused as invalid (our bug; redelivered)',
        serviceMetrics(METRICS.storageValidationError),
      ),
    ],
  ];
}
