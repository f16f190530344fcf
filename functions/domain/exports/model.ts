import { type ExportFormat, MAX_LISTED_EXECUTIONS } from '../../contract/exports';

import type { SequenceState } from '../gaps/sequence';

/** Export tasks and their executions (docs/contract.md §5, §7, §8). */

export const EXECUTION_STATUSES = [
  'CREATED',
  'QUEUED',
  'RUNNING',
  'SUCCEEDED',
  'FAILED',
  'TIMED_OUT',
  'CANCELING',
  'CANCELED',
] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

export const TERMINAL_STATUSES: readonly ExecutionStatus[] = [
  'SUCCEEDED',
  'FAILED',
  'TIMED_OUT',
  'CANCELED',
];

export interface Execution extends SequenceState {
  readonly id: string;
  readonly status: ExecutionStatus;
  readonly progress: number;
  /** Past this instant a non-terminal execution is timed out by the sweeper (§12). */
  readonly deadline?: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** An execution as stored: the public view plus what guards it. */
export interface ExecutionRecord extends Execution {
  readonly taskId: string;
  /** The application whose signed callbacks may report on this execution. */
  readonly applicationId: string;
  /** Optimistic-concurrency version of the projection. */
  readonly version: number;
  /** What the SUCCEEDED callback reported: the object and its measurements. */
  readonly result?: ExportResult;
}

export interface TaskRecord {
  readonly id: string;
  readonly accountId: string;
  readonly ownerId: string;
  readonly format: ExportFormat;
  readonly status: ExecutionStatus;
  readonly progress: number;
  readonly currentExecutionId: string;
  /** Reruns so far; absent on tasks written before reruns were counted (= 0). */
  readonly rerunCount?: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface TaskState {
  readonly task: TaskRecord;
  readonly executions: readonly ExecutionRecord[];
}

/** The message the outbox delivers to `export-jobs` (docs/contract.md §8). */
export interface ExportJob {
  readonly taskId: string;
  readonly executionId: string;
  readonly accountId: string;
  readonly format: ExportFormat;
  readonly callbackPath: string;
}

export function isTerminal(status: ExecutionStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

function executionView(record: ExecutionRecord): Execution {
  return {
    id: record.id,
    status: record.status,
    progress: record.progress,
    lastSequence: record.lastSequence,
    gaps: record.gaps,
    gapsTruncated: record.gapsTruncated,
    ...(record.deadline === undefined ? {} : { deadline: record.deadline }),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

/**
 * The public task (§12): its own fields and its `MAX_LISTED_EXECUTIONS` newest executions,
 * oldest first, with `executionsTruncated` when older ones were left out. The same bound holds
 * for the idempotency record stored for an export or a rerun, so no record outgrows an item.
 */
export function taskView(state: TaskState) {
  const { task } = state;
  const sorted = [...state.executions].sort(
    (a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id),
  );
  const listed = sorted.slice(-MAX_LISTED_EXECUTIONS);
  return {
    id: task.id,
    accountId: task.accountId,
    format: task.format,
    status: task.status,
    progress: task.progress,
    currentExecutionId: task.currentExecutionId,
    executions: listed.map(executionView),
    executionsTruncated: listed.length < sorted.length,
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
  };
}

/** A new execution, due at `createdAt + timeoutSeconds` (its deadline). */
export function newExecution(
  id: string,
  taskId: string,
  applicationId: string,
  at: Date,
  timeoutSeconds: number,
): ExecutionRecord {
  return {
    id,
    taskId,
    applicationId,
    status: 'CREATED',
    progress: 0,
    lastSequence: 0,
    gaps: [],
    gapsTruncated: false,
    version: 1,
    deadline: new Date(at.getTime() + timeoutSeconds * 1000).toISOString(),
    createdAt: at.toISOString(),
    updatedAt: at.toISOString(),
  };
}

/** What a SUCCEEDED callback carries in `data.result` and the execution then keeps. */
export interface ExportResult {
  /** `exports/<taskId>/<executionId>.<csv|jsonl>` (docs/contract.md §14 "Exports"). */
  readonly key: string;
  /** Data rows; the CSV header is not one. */
  readonly rows: number;
  readonly bytes: number;
  /** Lowercase hex SHA-256 of the object's bytes. */
  readonly sha256: string;
}
