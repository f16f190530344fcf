import type { AccountRecord, PostingEntry } from './model';
import type { EntryGuard, IdempotencyClaim, ResponseRecorder, WriteResult } from './ports';
import type { ExecutionRecord, ExecutionStatus, ExportJob, TaskRecord, TaskState } from './tasks';

export interface NewExport {
  readonly task: TaskRecord;
  readonly execution: ExecutionRecord;
  readonly job: ExportJob;
  /** The fee's ledger entry (a debit in the account's currency), posted under `guard`. */
  readonly fee: PostingEntry;
  readonly guard: EntryGuard;
}

export interface NewRerun {
  readonly task: TaskRecord;
  readonly execution: ExecutionRecord;
  readonly job: ExportJob;
  /** The task must still be in one of these statuses, with this current execution. */
  readonly allowedStatuses: readonly ExecutionStatus[];
  readonly expectedCurrentExecutionId: string;
  /** The reruns counted when the task was read: the write counts this one only from there. */
  readonly expectedRerunCount: number;
}

export type RerunResult =
  | WriteResult
  | { readonly kind: 'task_rejected'; readonly task: TaskRecord | undefined };

/** Storage for export tasks: each command is ONE atomic write with its claim and outbox item. */
export interface TaskPort extends ResponseRecorder {
  getAccount(accountId: string): Promise<AccountRecord | undefined>;
  getTask(taskId: string): Promise<TaskState | undefined>;
  createExport(claim: IdempotencyClaim, request: NewExport): Promise<WriteResult>;
  rerun(claim: IdempotencyClaim, request: NewRerun): Promise<RerunResult>;
}
