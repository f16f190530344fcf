import type { ExecutionRecord, ExecutionStatus, ExportResult, TaskRecord } from '../exports/model';
import type { SequenceState } from '../gaps/sequence';
import type { InboxClaim } from '../idempotency/port';

export interface ExecutionWrite {
  readonly taskId: string;
  readonly executionId: string;
  readonly expectedVersion: number;
  readonly status: ExecutionStatus;
  readonly progress: number;
  readonly sequence: SequenceState;
  readonly at: string;
  /** Kept on the execution when a newer SUCCEEDED callback carries it. */
  readonly result?: ExportResult;
}

export interface TaskProjectionWrite {
  readonly taskId: string;
  /** Written only while this execution is still the task's current one. */
  readonly currentExecutionId: string;
  readonly status: ExecutionStatus;
  readonly progress: number;
  readonly at: string;
}

export interface CallbackWrite {
  readonly inbox: InboxClaim;
  /** Absent for a stale number that fills no gap: the projection does not change at all. */
  readonly execution?: ExecutionWrite;
  readonly task?: TaskProjectionWrite;
}

/** `id_conflict`: (applicationId, id) was seen before with other content; nothing was written. */
export type CallbackWriteResult = 'committed' | 'duplicate' | 'id_conflict' | 'moved';

export interface CallbackPort {
  /** The execution and its task; with `taskId`, only an execution of that task. */
  findExecution(
    executionId: string,
    taskId: string | undefined,
  ): Promise<{ execution: ExecutionRecord; task: TaskRecord } | undefined>;
  applyCallback(write: CallbackWrite): Promise<CallbackWriteResult>;
}

/**
 * Active keys per application: `{ "<applicationId>": ["<secret>" | "whpk_…", …] }`. HMAC
 * secrets and `whpk_` public keys share one list (docs/contract.md §7);
 * functions/domain/callbacks/keys.ts splits them.
 */
export interface CallbackSecrets {
  secretsFor(applicationId: string): Promise<readonly string[]>;
}
