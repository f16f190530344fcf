import type { Duration } from 'aws-cdk-lib';

/**
 * Every alarm of the service: its slug (the alarm name after `idempotent-ledger-<stage>-`, and the
 * anchor of its section in {@link ALARMS_RUNBOOK}) and the description CloudWatch shows in the
 * console and in every notification. A description says what the alarm means and the first
 * thing to do; `describeAlarm` appends the runbook link. An infra test checks that the runbook
 * has a section for every slug.
 */

/** The operators' alarm reference, relative to the repository root. */
const ALARMS_RUNBOOK = 'docs/alarms.md';

/** Link to the runbook section of the alarm with `slug`. */
export const alarmRunbook = (slug: string): string => `${ALARMS_RUNBOOK}#${slug}`;

export const ALARM_SLUGS = {
  eventsDeadLetters: 'ledger-events-dlq-not-empty',
  exportJobsDeadLetters: 'export-jobs-dlq-not-empty',
  outboxDispatchDeadLetters: 'outbox-dispatch-dlq-not-empty',
  outboxIteratorAge: 'outbox-dispatcher-behind',
  httpErrors: 'http-function-errors',
  httpThrottles: 'http-function-throttles',
  eventsErrors: 'events-consumer-errors',
  eventsThrottles: 'events-consumer-throttles',
  dispatcherErrors: 'outbox-dispatcher-errors',
  dispatcherThrottles: 'outbox-dispatcher-throttles',
  api5xx: 'api-5xx-responses',
  tableThrottles: 'table-throttled-requests',
  tableSystemErrors: 'table-system-errors',
  storageThrottle: 'storage-throttle-retries',
  storageValidation: 'storage-validation-errors',
  exportWorkerErrors: 'export-worker-errors',
  sweeperErrors: 'sweeper-errors',
  overdueExecutions: 'executions-overdue',
  sweeperBehind: 'sweeper-behind',
  journalBehind: 'journal-projector-behind',
  journalVersionGap: 'journal-version-gap',
  journalPublishFailures: 'journal-publish-failures',
  daySumsFailures: 'day-sums-failures',
  journalErrors: 'journal-projector-errors',
  eventGapsOverdue: 'event-gaps-overdue',
  reconciliationMismatch: 'reconciliation-mismatch',
  reconcilerErrors: 'reconciler-errors',
  journalStuck: 'journal-stuck',
  journalHashChain: 'journal-hash-chain',
  creditIntakeLag: 'credit-intake-lag',
  creditIntakeDeadLetters: 'credit-intake-dlq-not-empty',
  creditIntakeErrors: 'credit-intake-errors',
  searchIndexDeadLetters: 'search-index-dlq-not-empty',
  searchIndexerErrors: 'search-indexer-errors',
  creditIntakeQueueAge: 'credit-intake-queue-behind',
  setAsideCredits: 'set-aside-credits',
} as const;

export type AlarmSlug = (typeof ALARM_SLUGS)[keyof typeof ALARM_SLUGS];

/** Shown on the ledger-events DLQ alarm. */
export const EVENTS_DLQ_ALARM_DESCRIPTION = [
  'ledger-events-dlq holds at least one message: a ledger event was NOT applied to any balance.',
  'Messages with attributes error_code/error_detail were rejected permanently by the consumer',
  '(schema, unknown account, currency mismatch, insufficient funds, paymentId conflict);',
  'messages without them failed 5 deliveries (storage errors, throttling, a consumer bug: check',
  'the consumer log group). Read them without deleting, fix the cause (or tell the producer),',
  'then move them back to ledger-events with an SQS redrive (StartMessageMoveTask); the inbox',
  'dedups on (source, id), so a redrive never applies an event twice. Delete only events that',
  'must not be applied. Act within 10 days: messages expire 14 days after their first enqueue.',
].join(' ');

/** Shown on the export-jobs DLQ alarm. */
export const EXPORT_JOBS_DLQ_ALARM_DESCRIPTION = [
  'export-jobs-dlq holds at least one message: an export job failed 5 deliveries to the export',
  'workers, so its execution will not progress (no callbacks arrive for it). The body is the job',
  '{ taskId, executionId, accountId, format, callbackPath }. Check the export workers (logs,',
  'permissions on export-jobs, the callback secret), fix the cause, then move the messages back',
  'to export-jobs with an SQS redrive (StartMessageMoveTask); workers dedup by executionId, so a',
  'redrive never runs an export twice. Messages expire 14 days after their first enqueue.',
].join(' ');

/** Shown on the outbox-dispatch DLQ alarm. */
export const OUTBOX_DISPATCH_DLQ_ALARM_DESCRIPTION = [
  'outbox-dispatch-dlq holds at least one message: the outbox dispatcher gave up on a DynamoDB',
  'stream batch after retrying it for the maximum record age, so at least one export job never',
  'reached export-jobs (the task was paid for and stays queued). The message holds the shard and',
  'sequence numbers, not the job. The outbox items are still in the table without dispatchedAt:',
  'fix the cause (dispatcher log group, permissions, export-jobs), then send each undispatched',
  "item's job to export-jobs (workers dedup by executionId) and delete the DLQ message.",
].join(' ');

/** Shown on the dispatcher's iterator-age alarm. */
export function outboxIteratorAgeDescription(threshold: Duration, maxRecordAge: Duration): string {
  return [
    `The outbox dispatcher is at least ${threshold.toMinutes()} minutes behind the table stream: export jobs are`,
    'delayed, most likely because one keeps failing (the dispatcher retries it, in order, for up',
    `to ${maxRecordAge.toHours()} hours before writing it to outbox-dispatch-dlq). Check the dispatcher log group for`,
    '"export job dispatch failed" and fix the cause; dispatch resumes by itself.',
  ].join(' ');
}

/** Shown on the HTTP function's Errors alarm. */
export const HTTP_ERRORS_DESCRIPTION = [
  'The HTTP function (ledger-http) failed at least one invocation in 5 minutes: a crash at cold',
  'start (configuration), a timeout (10 s) or running out of memory. The handler turns every',
  'error it catches into a problem+json response, so these are requests that got a bare 5xx from',
  'API Gateway; a request that was not answered has not been recorded and can be retried with',
  'its Idempotency-Key. First: run the runbook query on the function log group for ERROR lines',
  'and "Task timed out", and compare with the last deployment.',
].join(' ');

/** Shown on the events consumer's Errors alarm. */
export const EVENTS_ERRORS_DESCRIPTION = [
  'The ledger-events consumer failed at least one whole invocation in 5 minutes (a crash at cold',
  'start, a timeout of 30 s, running out of memory), so every message of that batch comes back',
  'after the visibility timeout, and after 5 receives lands in ledger-events-dlq. Single events',
  'that fail are NOT counted here (they are reported as batch item failures). First: run the',
  'runbook query on the consumer log group and compare with the last deployment.',
].join(' ');

/** Shown on the outbox dispatcher's Errors alarm. */
export const DISPATCHER_ERRORS_DESCRIPTION = [
  'The outbox dispatcher failed at least one whole invocation in 5 minutes (crash, timeout,',
  'out of memory). Lambda retries the stream batch from the same record, in order, so export',
  'jobs are delayed, not lost; if it keeps failing, outbox-dispatcher-behind follows. First: run',
  'the runbook query on the dispatcher log group and compare with the last deployment.',
].join(' ');

/** Shown on the sweeper-behind alarm; `thresholdSeconds` is its threshold. */
export function sweeperBehindDescription(thresholdSeconds: number): string {
  return [
    `An expired hold has waited at least ${thresholdSeconds} s for the sweeper to release it`,
    '(SweepOldestDueAgeSeconds, kind=hold; the contract bound is about 60 s on AWS). Its amount',
    'is still missing from the available balance. Items whose release failed are logged as',
    '"sweep could not settle an item" with their key, and counted in SweepFailure; a run that hit',
    'its time budget logs "sweep stopped at its time budget". First: read the sweeper log group,',
    'fix the failing items or raise the sweeper budget; releasing is idempotent.',
  ].join(' ');
}

/** Shown on the Throttles alarms; `effect` says what a throttle does to that function's work. */
export function throttlesDescription(functionLabel: string, effect: string): string {
  return [
    `Lambda refused at least one invocation of the ${functionLabel} in 5 minutes for lack of`,
    `concurrency (its reserved concurrency, or the account's unreserved pool). ${effect}`,
    "First: compare ConcurrentExecutions with the function's reserved concurrency and the",
    "account's ClaimedAccountConcurrency; look for a traffic spike or a slow dependency",
    'holding invocations open.',
  ].join(' ');
}

export const HTTP_THROTTLE_EFFECT =
  'API Gateway answered those requests with a 5xx; clients retry them with the same Idempotency-Key.';
export const EVENTS_THROTTLE_EFFECT =
  'The SQS event source backs off and retries; events wait in ledger-events, none are lost unless they reach 5 receives.';
export const DISPATCHER_THROTTLE_EFFECT =
  'Stream shards beyond the reserved concurrency wait their turn: export jobs are delayed, in order, not lost.';

/** Shown on the API 5xx alarm. */
export function api5xxDescription(threshold: number): string {
  return [
    `The HTTP API returned at least ${threshold} 5xx responses in 5 minutes. 500 internal means`,
    'a bug or a crash (http-function-errors usually fires too); 503 unavailable means DynamoDB',
    'was throttled or unavailable after retries (see table-throttled-requests); a throttled',
    'function also shows as 5xx. 5xx outcomes are never recorded for idempotency, so clients can',
    'retry with the same key. First: run the runbook access-log query to see which routes and',
    'status codes, then the function log group for ERROR lines.',
  ].join(' ');
}

/** Shown on the table ThrottledRequests alarm. */
export function tableThrottlesDescription(operations: readonly string[]): string {
  return [
    `DynamoDB throttled at least one request on the ledger table in 5 minutes (${operations.join(', ')}).`,
    'The functions retry throttled calls, so callers may only see latency; if retries run out,',
    'HTTP callers get 503 unavailable and ledger events are redelivered. On an on-demand table',
    'this means a traffic jump beyond double the previous peak, or a hot partition (one account',
    'taking most writes). First: check ThrottledRequests by operation and Contributor Insights',
    'for the hottest keys.',
  ].join(' ');
}

/** Shown on the table SystemErrors alarm. */
export function tableSystemErrorsDescription(operations: readonly string[]): string {
  return [
    `DynamoDB returned at least one internal server error (HTTP 500) on the ledger table in 5 minutes (${operations.join(', ')}).`,
    'The SDK retries these, and a transaction either commits whole or not at all, so no',
    'half-written state is possible; callers may see 503 unavailable. First: check the AWS Health',
    'Dashboard for DynamoDB in this region; if errors persist without an event there, open an AWS',
    'support case with the request ids from the function logs.',
  ].join(' ');
}

/** Shown on the StorageThrottle (EMF) alarm. */
export function storageThrottleDescription(threshold: number): string {
  return [
    `The functions counted at least ${threshold} storage throttles in 5 minutes (metric StorageThrottle):`,
    'transaction retries because DynamoDB throttled, plus HTTP requests answered 503 unavailable.',
    'This is the customer-facing side of table-throttled-requests: sustained throttling that',
    'retries no longer absorb. First: see the table-throttled-requests runbook; look for one',
    'account or producer driving the load.',
  ].join(' ');
}

/** Shown on the StorageValidationError (EMF) alarm. */
export const STORAGE_VALIDATION_DESCRIPTION = [
  'DynamoDB refused a ledger event that had passed validation as invalid (a ValidationException,',
  "metric StorageValidationError of ledger-events). This is a bug of ours, not the producer's: a",
  'DynamoDB limit the event schema does not check yet. The event is NOT applied and NOT',
  'dead-lettered at once: it is redelivered, and after 5 receives lands in ledger-events-dlq',
  'without error_code. First: read the consumer log group for "DynamoDB refused a validated',
  'ledger event" (its errorMessage names the limit), add that check to the event schema and',
  'deploy; then redrive ledger-events-dlq (the inbox dedups, so nothing applies twice).',
].join(' ');

/** Shown on the export worker's Errors alarm. */
export const EXPORT_WORKER_ERRORS_DESCRIPTION = [
  'The export worker failed at least one whole invocation in 5 minutes (a crash at cold start,',
  'its timeout, running out of memory). The job comes back after the visibility timeout and,',
  'after 5 receives, lands in export-jobs-dlq; its execution times out at its deadline and the',
  'customer can rerun the task. Exports that fail inside a run are not counted here (see the',
  'ExportFailed metric). First: run the runbook query on the worker log group and compare with',
  'the last deployment.',
].join(' ');

/** Shown on the sweeper's Errors alarm. */
export const SWEEPER_ERRORS_DESCRIPTION = [
  'The sweeper failed at least one whole run in 5 minutes (crash at cold start, 60 s timeout, out',
  'of memory, or an unreadable due index). While it fails, expired holds keep their amount out of',
  'available (captures and voids already refuse them: hold_expired) and executions past their',
  'deadline stay non-terminal (their tasks cannot be rerun). Runs are idempotent; the next',
  'scheduled run retries everything still due, so nothing is lost. First: run the runbook query',
  'on the sweeper log group and compare with the last deployment.',
].join(' ');

/** Shown on the overdue-executions alarm. */
export function overdueExecutionsDescription(threshold: Duration): string {
  return [
    `An export execution has been past its deadline for more than ${threshold.toMinutes()} minutes without being`,
    'timed out (metric SweepOldestDueAgeSeconds, kind execution): the sweeper runs but cannot settle it,',
    'so its task stays behind task_not_terminal. First: look in the sweeper log group for "sweep',
    'could not settle an item" with kind execution and the execution pk.',
  ].join(' ');
}

export * from './alarm-catalog-journal';
export * from './constructs/intake/alarm-text';
