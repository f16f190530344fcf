/**
 * The operational metrics of the service (namespace `IdempotentLedger`). Each is a count;
 * dashboards and alarms read them by these names.
 */
/** The CloudWatch namespace every function publishes to (the CDK dashboard and alarms read it). */
export const METRICS_NAMESPACE = 'IdempotentLedger';

/** The `service` dimension of each function's metrics (Powertools adds it to every metric). */
export const SERVICE_NAMES = {
  http: 'ledger-http',
  events: 'ledger-events',
  dispatcher: 'ledger-outbox-dispatcher',
  exportWorker: 'ledger-export-worker',
  sweeper: 'ledger-sweeper',
  journalProjector: 'ledger-journal-projector',
  reconciler: 'ledger-reconciler',
  creditIntake: 'ledger-credit-intake',
  webhooks: 'ledger-webhooks',
  searchIndexer: 'ledger-search-indexer',
} as const;

export type ServiceName = (typeof SERVICE_NAMES)[keyof typeof SERVICE_NAMES];

export const METRICS = {
  /** Webhook attempts answered 2xx within 10 s (docs/contract.md §32). */
  webhookDelivered: 'WebhookDelivered',
  /** Webhook attempts that failed (retried unless the delivery ran out of time). */
  webhookAttemptFailed: 'WebhookAttemptFailed',
  /** Webhook deliveries that ran out of retries: `failed`. Alarmed on. */
  webhookDeliveryFailed: 'WebhookDeliveryFailed',
  /** Endpoints disabled after too many failed attempts in a row. Alarmed on. */
  webhookEndpointDisabled: 'WebhookEndpointDisabled',
  idempotentReplay: 'IdempotentReplay',
  idempotencyKeyReused: 'IdempotencyKeyReused',
  inboxDuplicate: 'InboxDuplicate',
  deadLetter: 'DeadLetter',
  sequenceGap: 'SequenceGap',
  callbackApplied: 'CallbackApplied',
  callbackDuplicate: 'CallbackDuplicate',
  callbackStale: 'CallbackStale',
  callbackSuperseded: 'CallbackSuperseded',
  signatureFailure: 'CallbackSignatureFailure',
  transactionConflictRetry: 'TransactionConflictRetry',
  storageThrottle: 'StorageThrottle',
  /** DynamoDB refused an event's write as invalid: a gap in our validation, alarmed on. */
  storageValidationError: 'StorageValidationError',
  ledgerEventApplied: 'LedgerEventApplied',
  /** Events applied in a batched write with others of their account (docs/contract.md §20). */
  ledgerEventsBatched: 'LedgerEventsBatched',
  /** Batched writes that could not commit as a whole, so their events went one by one. */
  ledgerEventBatchFallback: 'LedgerEventBatchFallback',
  exportJobDispatched: 'ExportJobDispatched',
  exportJobDispatchFailure: 'ExportJobDispatchFailure',
  exportSucceeded: 'ExportSucceeded',
  exportSkipped: 'ExportSkipped',
  exportFailed: 'ExportFailed',
  /** A run whose execution timed out meanwhile (a callback answered stale): no object is left. */
  exportTimedOut: 'ExportTimedOut',
  /** Due items the sweeper settled, by `kind` (hold, execution). */
  sweepSettled: 'SweepSettled',
  /** Due items another writer had settled first (a failed condition), by `kind`. */
  sweepAlreadyDone: 'SweepAlreadyDone',
  /** Due items whose settle threw; they stay due for the next sweep. By `kind`. */
  sweepFailure: 'SweepFailure',
  /** Seconds the oldest due item had been waiting when a sweep started, by `kind` (a gauge). */
  sweepOldestDueAge: 'SweepOldestDueAgeSeconds',
  /**
   * Gap numbers of ledger-event sources open longer than GAP_REFETCH_AFTER_SECONDS × 12 that a
   * sweep saw (docs/contract.md §18): a gauge per sweep, alarmed on (`event-gaps-overdue`).
   */
  overdueGaps: 'OverdueGaps',
  /** Gap numbers closed by a producer's `ledger.gap.waived.v1`. */
  gapsWaived: 'GapsWaived',
  /** Journal records the projector wrote (docs/contract.md §15). */
  journalRecordsWritten: 'JournalRecordsWritten',
  /** Account updates the projector found already projected (stream redelivery): no write. */
  journalAlreadyProjected: 'JournalAlreadyProjected',
  /**
   * Account updates the projector could not continue the journal with: the head stood behind
   * them (a lost stream record), or the item did not read as a journaled change. Alarmed on.
   */
  journalVersionGap: 'JournalVersionGap',
  /** Journal events accepted by the topic. */
  journalEventsPublished: 'JournalEventsPublished',
  /** Journal events the topic did not accept (retried from the stream). Alarmed on. */
  journalPublishFailure: 'JournalPublishFailure',
  /**
   * Account updates whose day sums of effective time (docs/contract.md §26) the projector could
   * not add; retried from the stream, the journal unaffected. Alarmed on.
   */
  daySumsFailure: 'EffectiveDaySumsFailure',
  /**
   * Edge months of statements and effective balances read entry by entry: their day sums were
   * not complete (docs/contract.md §26 "Day sums"; the projector behind, a month from before).
   */
  monthsReadWhole: 'EffectiveMonthsReadWhole',
  /** Seconds from a change's commit (the writer's clock) to its record, the batch's maximum. */
  journalLag: 'JournalLagSeconds',
  /** New reconciliation findings (docs/contract.md §19); each one's log line names its check. Alarmed on. */
  reconciliationMismatches: 'ReconciliationMismatches',
  /** New `journal_version_gap` findings: a journal stuck behind its account (§30). Alarmed on. */
  journalVersionGapFindings: 'JournalVersionGapFindings',
  /** Journal records the reconciler checked in a run. */
  reconciledRecords: 'ReconciledRecords',
  /**
   * New `hash_chain` findings (docs/contract.md §27): a journal record whose hash does not link
   * its content to the record before, i.e. an edited journal. Alarmed on.
   */
  journalHashChainBreaks: 'JournalHashChainBreaks',
  /**
   * Seconds the oldest pending credit the folder found had waited since its intake
   * (docs/contract.md §24): the posting lag, a gauge per invocation, alarmed on
   * (`credit-intake-lag`).
   */
  creditIntakeLag: 'CreditIntakeLagSeconds',
  /** Pending credits the folder posted (docs/contract.md §24). */
  creditsPosted: 'CreditsPosted',
  /**
   * Pending credits the folder set aside (docs/contract.md §36): it can never post them (a
   * closed period, the 2^53 cap); each is a reconciler finding. Alarmed on (`set-aside-credits`).
   */
  setAsideCredits: 'SetAsideCredits',
  /** Accounts the outbox dispatcher sent to `credit-intake`. */
  creditIntakeNotified: 'CreditIntakeNotified',
} as const;

export type MetricName = (typeof METRICS)[keyof typeof METRICS];

export interface MetricsPort {
  /** Adds `value` (default 1) to a count, optionally split by one dimension. */
  count(name: MetricName, value?: number, dimension?: { name: string; value: string }): void;
  /** Records a measured duration in seconds (alarms read its maximum). */
  seconds(name: MetricName, value: number, dimension?: { name: string; value: string }): void;
}

export const noMetrics: MetricsPort = { count: () => {}, seconds: () => {} };

/** Counts a transaction retry by its cause: contention or throttling. */
export function countRetry(metrics: MetricsPort): (reason: string) => void {
  return (reason) =>
    metrics.count(
      reason === 'TransactionConflict' ? METRICS.transactionConflictRetry : METRICS.storageThrottle,
    );
}
