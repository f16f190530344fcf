import type { AccountRecord, LedgerEntry } from '../accounts/model';
import type { WriteResult } from '../accounts/port';
import type { IdempotencyClaim, ResponseRecorder } from '../idempotency/port';
import type {
  ExecutionRecord,
  ExecutionStatus,
  ExportJob,
  ExportResult,
  TaskRecord,
  TaskState,
} from './model';

/**
 * What an export's fee pays for, written in the fee's own transaction (docs/contract.md §5,
 * §23): the task, its first execution and the outbox job that starts it.
 */
export interface PaidExport {
  readonly task: TaskRecord;
  readonly execution: ExecutionRecord;
  readonly job: ExportJob;
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
  rerun(claim: IdempotencyClaim, request: NewRerun): Promise<RerunResult>;
}

/**
 * What the export worker needs from storage (docs/contract.md §12): one claim per execution so
 * that duplicate jobs run it once, and the account's entries up to the snapshot, page by page.
 */

export type RunClaim =
  /** This worker runs the execution; its callbacks continue after `lastSequence`. */
  | { readonly kind: 'claimed'; readonly lastSequence: number }
  | { readonly kind: 'unknown_execution' }
  /** SUCCEEDED, FAILED, TIMED_OUT or CANCELED: a duplicate job has nothing left to do. */
  | { readonly kind: 'finished'; readonly status: ExecutionStatus }
  | { readonly kind: 'past_deadline'; readonly deadline: string }
  /** Another worker holds the execution until then; its own job copy covers a crash. */
  | { readonly kind: 'leased'; readonly leaseUntil: string };

/** The stored facts a refused claim is explained from. */
export interface ClaimedExecutionFacts {
  readonly status: ExecutionStatus;
  readonly deadline?: string;
  readonly leaseUntil?: string;
}

export interface ExportRunPort {
  /**
   * One conditional write: the execution exists, is not terminal, is before its deadline and
   * holds no live lease → it is leased to this run until `leaseUntil`.
   */
  claimRun(job: ExportJob, now: Date, leaseUntil: Date): Promise<RunClaim>;
  /** The account's entries created at or before `upTo`, oldest first, strongly consistent. */
  entryPages(accountId: string, upTo: string): AsyncIterable<readonly LedgerEntry[]>;
}

/** Where export objects live, seen from the HTTP API: is it still there, and a download link. */
export interface ResultObjectPort {
  /** False once the object is gone (the bucket's lifecycle rule deleted it). */
  exists(key: string): Promise<boolean>;
  /** A presigned GET of the object, valid `expiresInSeconds`. */
  presignGet(key: string, expiresInSeconds: number): Promise<string>;
}

/** Timing out one execution: the execution from `expectedVersion`, and its task if current. */
export interface ExecutionTimeout {
  readonly taskId: string;
  readonly executionId: string;
  readonly expectedVersion: number;
  /** The task shows TIMED_OUT only while this execution is still its current one. */
  readonly current: boolean;
  /** Kept as it was: the task mirrors the execution's last progress. */
  readonly progress: number;
  readonly at: string;
}

export interface ExecutionDeadlinePort {
  /** The execution and its task's current execution id, strongly consistent. */
  readExecution(
    taskId: string,
    executionId: string,
  ): Promise<{ execution: ExecutionRecord; currentExecutionId: string } | undefined>;
  /**
   * ONE transaction: the execution (not terminal AND `version = expectedVersion` → TIMED_OUT,
   * `version + 1`, out of the due index) plus, when current, the task's status.
   * `moved` when a condition failed (a callback or a rerun got there first).
   */
  timeOutExecution(timeout: ExecutionTimeout): Promise<'committed' | 'moved'>;
}

/** The export worker's outbound ports: where the file goes and where progress is reported. */

/** One object being written; bytes go out in order, memory stays bounded by the adapter. */
export interface ObjectWriter {
  /** Resolves once the chunk is accepted (waits while the upload is behind). */
  write(chunk: Uint8Array): Promise<void>;
  /** Completes the object; only then does it exist. */
  complete(): Promise<void>;
  /** Gives up: no object, no parts left behind. Never throws. */
  abort(): Promise<void>;
}

export interface ObjectSink {
  open(key: string, contentType: string): ObjectWriter;
  /** Deletes a completed object (a run whose execution timed out meanwhile leaves none). */
  delete(key: string): Promise<void>;
}

export type ReportedStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED';

export interface ExecutionUpdate {
  readonly job: ExportJob;
  readonly sequence: number;
  readonly status: ReportedStatus;
  readonly progress: number;
  readonly result?: ExportResult;
}

/** Reports through the signed callback endpoint; resolves with the answer's `outcome`. */
export interface ExecutionReporter {
  report(update: ExecutionUpdate): Promise<string>;
}

export interface ExportJobQueue {
  send(job: ExportJob): Promise<void>;
}
