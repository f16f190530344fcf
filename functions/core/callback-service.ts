import { InvalidCallbackError, UnavailableError } from './errors';
import type { InboxClaim } from './event-service';
import { MOVED, type OptimisticRetryOptions, retryOptimistic } from './retry';
import { advanceSequence, type SequenceAdvance, type SequenceState } from './sequence';
import type { ExecutionRecord, ExecutionStatus, TaskRecord } from './tasks';

export type CallbackOutcome = 'applied' | 'duplicate' | 'stale' | 'superseded';

/** A verified, validated callback about one execution. */
export interface CallbackInput {
  readonly applicationId: string;
  readonly id: string;
  readonly executionId: string;
  readonly taskId?: string;
  readonly sequence: number;
  readonly status?: ExecutionStatus;
  readonly progress?: number;
  /** SHA-256 of the normalised callback without `time` (docs/contract.md §7). */
  readonly contentHash?: string;
}

export interface ExecutionWrite {
  readonly taskId: string;
  readonly executionId: string;
  readonly expectedVersion: number;
  readonly status: ExecutionStatus;
  readonly progress: number;
  readonly sequence: SequenceState;
  readonly at: string;
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

export interface CallbackResult {
  readonly outcome: CallbackOutcome;
  readonly taskId: string;
  readonly sequence: SequenceAdvance;
}

/** `maxAttempts`: when the execution or task moved between read and write. */
export interface CallbackServiceOptions extends OptimisticRetryOptions {
  readonly inboxRetentionSeconds: number;
}

/** Inbox records of callbacks live beside those of ledger events, in their own namespace. */
const CALLBACK_INBOX_NAMESPACE = 'callback';

/**
 * Projects execution callbacks: the inbox record, the execution (guarded by its version) and,
 * while the execution is current, the task — one transaction. Stale and superseded events
 * never overwrite newer state.
 */
export class CallbackService {
  constructor(
    private readonly port: CallbackPort,
    private readonly options: CallbackServiceOptions,
  ) {}

  async apply(input: CallbackInput, now: Date): Promise<CallbackResult> {
    const nowSeconds = Math.floor(now.getTime() / 1000);
    const inbox: InboxClaim = {
      namespace: CALLBACK_INBOX_NAMESPACE,
      source: input.applicationId,
      id: input.id,
      contentHash: input.contentHash,
      nowSeconds,
      expiresAt: nowSeconds + this.options.inboxRetentionSeconds,
    };
    return retryOptimistic<CallbackResult>(
      this.options,
      () => this.attempt(input, inbox, now),
      () => new UnavailableError(new Error('execution kept moving')),
    );
  }

  private async attempt(
    input: CallbackInput,
    inbox: InboxClaim,
    now: Date,
  ): Promise<CallbackResult | typeof MOVED> {
    const found = await this.port.findExecution(input.executionId, input.taskId);
    if (!found) throw new InvalidCallbackError('The callback names an unknown execution.');
    const { execution, task } = found;
    if (execution.applicationId !== input.applicationId) {
      throw new InvalidCallbackError('The execution does not belong to this application.');
    }
    const sequence = advanceSequence(execution, input.sequence);
    const newer = sequence.position === 'next' || sequence.position === 'ahead';
    const current = task.currentExecutionId === execution.id;
    // Snapshots: a newer sequence replaces what it carries; an older one changes nothing
    // but the gap it fills (and then not even updatedAt).
    const at = newer ? now.toISOString() : execution.updatedAt;
    const status = newer ? (input.status ?? execution.status) : execution.status;
    const progress = newer ? (input.progress ?? execution.progress) : execution.progress;
    const result = await this.port.applyCallback({
      inbox,
      execution:
        sequence.position === 'stale'
          ? undefined
          : {
              taskId: task.id,
              executionId: execution.id,
              expectedVersion: execution.version,
              status,
              progress,
              sequence: sequence.state,
              at,
            },
      task:
        newer && current
          ? { taskId: task.id, currentExecutionId: execution.id, status, progress, at }
          : undefined,
    });
    if (result === 'moved') return MOVED;
    if (result === 'duplicate') return { outcome: 'duplicate', taskId: task.id, sequence };
    if (result === 'id_conflict') {
      throw new InvalidCallbackError(
        `Callback id ${input.id} was already received with other content; nothing was recorded.`,
      );
    }
    const outcome: CallbackOutcome = !newer ? 'stale' : current ? 'applied' : 'superseded';
    return { outcome, taskId: task.id, sequence };
  }
}
