/**
 * One definition per export fact (docs/contract.md §12, §14 "Exports"): where the object lives,
 * what it is called, its columns, and the limits around it. The worker, the callback check, the
 * result route, the CDK stack and the local stack all import these.
 */

import { MAX_RECEIVE_COUNT } from './names';

/** The bucket the local stack creates; on AWS the stack names it and passes it in. */
export const LOCAL_EXPORT_BUCKET = 'ledger-exports';

/** Every export object sits under this prefix (the worker may write nothing else). */
export const EXPORT_KEY_PREFIX = 'exports/';

export const EXPORT_FILE_EXTENSIONS: Readonly<Record<ExportFormat, string>> = {
  csv: 'csv',
  json: 'jsonl',
};

export const EXPORT_CONTENT_TYPES: Readonly<Record<ExportFormat, string>> = {
  csv: 'text/csv; charset=utf-8; header=present',
  json: 'application/jsonl; charset=utf-8',
};

/** The service chooses the key: `exports/<taskId>/<executionId>.<csv|jsonl>`. */
export function exportObjectKey(taskId: string, executionId: string, format: ExportFormat): string {
  return `${EXPORT_KEY_PREFIX}${taskId}/${executionId}.${EXPORT_FILE_EXTENSIONS[format]}`;
}

/** CSV columns, in this order; the header row spells them exactly. */
export const CSV_COLUMNS = [
  'id',
  'createdAt',
  'type',
  'amount',
  'currency',
  'origin',
  'reference',
  'paymentId',
  'transferId',
  'counterpartyAccountId',
  'holdId',
  // Ledger depth (docs/contract.md §14, §16): appended, so older readers keep their columns.
  'ledgerTransactionId',
  'reversalOf',
  'direction',
  'metadata',
  // Effective dates (docs/contract.md §26): appended likewise.
  'effectiveAt',
] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];

/** Free text a caller or producer chose: the only cells the formula guard touches. */
export const CSV_TEXT_COLUMNS: ReadonlySet<CsvColumn> = new Set([
  'reference',
  'paymentId',
  'metadata',
]);

/** How long a result URL stays valid. */
export const RESULT_URL_TTL_SECONDS = 900;

/** Days an export object is kept before the bucket's lifecycle rule deletes it. */
export const DEFAULT_EXPORT_RETENTION_DAYS = 7;

/** An execution not terminal this long after it was created is timed out by the sweeper. */
export const DEFAULT_EXPORT_EXECUTION_TIMEOUT_SECONDS = 900;

/** Reruns a task accepts; the next one is `409 rerun_limit_reached`. */
export const DEFAULT_MAX_RERUNS_PER_TASK = 20;

/** Task bodies list at most this many executions, the newest (§12: `executionsTruncated`). */
export const MAX_LISTED_EXECUTIONS = 20;

export const EXPORT_FORMATS = ['csv', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

// ---- Export retries before the deadline (docs/contract.md §12). A job failing on every receive
// must report FAILED and reach export-jobs-dlq before its execution's deadline. SQS hides a
// received job for the visibility timeout and moves it to the DLQ on the receive after the last
// allowed one, about maxReceiveCount × visibility after the first; Lambda refuses a visibility
// timeout shorter than the function's. The CDK stacks and the local stack read these values
// and check them with `exportRetryProblems`.

/** Timeout of the export worker Lambda; locally, the time one run of the worker gets. */
export const EXPORT_WORKER_TIMEOUT_SECONDS = 120;

/** Least gap between the worker's timeout and the queue's visibility timeout. */
export const EXPORT_JOBS_VISIBILITY_MARGIN_SECONDS = 30;

/** Visibility timeout of `export-jobs`: the worker's timeout and the margin (150 s). */
export const EXPORT_JOBS_VISIBILITY_TIMEOUT_SECONDS =
  EXPORT_WORKER_TIMEOUT_SECONDS + EXPORT_JOBS_VISIBILITY_MARGIN_SECONDS;

/** Receives of a job before SQS moves it to `export-jobs-dlq` (the redrive policy). */
export const EXPORT_JOBS_MAX_RECEIVE_COUNT = MAX_RECEIVE_COUNT;

export interface ExportRetryTiming {
  readonly workerTimeoutSeconds: number;
  readonly visibilityTimeoutSeconds: number;
  readonly maxReceiveCount: number;
  /** The execution deadline after creation (`EXPORT_EXECUTION_TIMEOUT_SECONDS`). */
  readonly deadlineSeconds: number;
}

/** The timing this service ships with, for a given deadline. */
export function exportRetryTiming(deadlineSeconds: number): ExportRetryTiming {
  return {
    workerTimeoutSeconds: EXPORT_WORKER_TIMEOUT_SECONDS,
    visibilityTimeoutSeconds: EXPORT_JOBS_VISIBILITY_TIMEOUT_SECONDS,
    maxReceiveCount: EXPORT_JOBS_MAX_RECEIVE_COUNT,
    deadlineSeconds,
  };
}

/**
 * Seconds the retries keep free before the deadline (docs/contract.md §30): the deadline counts
 * from the execution's creation, but the first receive waits for the outbox dispatcher (the
 * stream's delay) and for the jobs ahead of it (at most 5 run at once).
 */
export const EXPORT_RETRY_MARGIN_SECONDS = 60;

/** Seconds after the first receive at which a job failing every time reaches the DLQ. */
export const exportDeadLetterSeconds = (t: ExportRetryTiming): number =>
  t.maxReceiveCount * t.visibilityTimeoutSeconds;

/** The shortest deadline the retries fit in: one second past the DLQ time and the margin. */
export const minimumExportDeadlineSeconds = (t: Omit<ExportRetryTiming, 'deadlineSeconds'>) =>
  exportDeadLetterSeconds({ ...t, deadlineSeconds: 0 }) + EXPORT_RETRY_MARGIN_SECONDS + 1;

/** Why the visibility timeout is too short for the worker's timeout, or undefined. */
export function exportVisibilityProblem(
  t: Pick<ExportRetryTiming, 'workerTimeoutSeconds' | 'visibilityTimeoutSeconds'>,
): string | undefined {
  const least = t.workerTimeoutSeconds + EXPORT_JOBS_VISIBILITY_MARGIN_SECONDS;
  if (t.visibilityTimeoutSeconds >= least) return undefined;
  return `the export-jobs visibility timeout (${t.visibilityTimeoutSeconds} s) must be at least the export worker's timeout (${t.workerTimeoutSeconds} s) + ${EXPORT_JOBS_VISIBILITY_MARGIN_SECONDS} s = ${least} s, or a job reappears while its run may still work`;
}

/**
 * Every rule `t` breaks, each sentence naming its numbers; empty when a job failing on every
 * receive reports FAILED and reaches the DLQ before its deadline:
 * visibility ≥ worker timeout + 30 s, and maxReceiveCount × visibility + 60 s < deadline.
 */
export function exportRetryProblems(t: ExportRetryTiming): string[] {
  const problems: string[] = [];
  const visibility = exportVisibilityProblem(t);
  if (visibility) problems.push(visibility);
  const needed = exportDeadLetterSeconds(t) + EXPORT_RETRY_MARGIN_SECONDS;
  if (needed >= t.deadlineSeconds) {
    problems.push(
      `${t.maxReceiveCount} receives × the export-jobs visibility timeout (${t.visibilityTimeoutSeconds} s) + a ${EXPORT_RETRY_MARGIN_SECONDS} s margin (dispatch delay, backlog) = ${needed} s must be less than the execution deadline (${t.deadlineSeconds} s), or a failing job times out before it reports FAILED and reaches export-jobs-dlq`,
    );
  }
  return problems;
}
