/**
 * One definition per export fact (docs/contract.md §12, §14 "Exports"): where the object lives,
 * what it is called, its columns, and the limits around it. The worker, the callback check, the
 * result route, the CDK stack and the local stack all import these.
 */

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
] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];

/** Free text a caller or producer chose: the only cells the formula guard touches. */
export const CSV_TEXT_COLUMNS: ReadonlySet<CsvColumn> = new Set(['reference', 'paymentId']);

/** How long a result URL stays valid. */
export const RESULT_URL_TTL_SECONDS = 900;

/** Days an export object is kept before the bucket's lifecycle rule deletes it. */
export const DEFAULT_EXPORT_RETENTION_DAYS = 7;

/** An execution not terminal this long after it was created is timed out by the sweeper. */
export const DEFAULT_EXPORT_EXECUTION_TIMEOUT_SECONDS = 900;

/**
 * Timeout of the export worker Lambda: at most half the execution deadline (§14), so a run that
 * Lambda stops still leaves the sweeper time before anyone reruns the task.
 */
export const EXPORT_WORKER_TIMEOUT_SECONDS = 300;

/** Reruns a task accepts; the next one is `409 rerun_limit_reached`. */
export const DEFAULT_MAX_RERUNS_PER_TASK = 20;

/** Task bodies list at most this many executions, the newest (§12: `executionsTruncated`). */
export const MAX_LISTED_EXECUTIONS = 20;

export const EXPORT_FORMATS = ['csv', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
