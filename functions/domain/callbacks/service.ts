import { exportObjectKey } from '../../contract/exports';
import {
  type ExecutionRecord,
  type ExecutionStatus,
  type ExportResult,
  isTerminal,
  type TaskRecord,
} from '../exports/model';
import { advanceSequence, type SequenceAdvance } from '../gaps/sequence';
import type { InboxClaim } from '../idempotency/port';
import { InvalidCallbackError, UnavailableError } from '../shared/errors';
import { MOVED, type OptimisticRetryOptions, retryOptimistic } from '../shared/retry';
import { epochSeconds } from '../shared/time';
import type { CallbackPort } from './port';

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
  /** The export's object and measurements; required with SUCCEEDED (docs/contract.md §12). */
  readonly result?: ExportResult;
  /** SHA-256 of the normalised callback without `time` (docs/contract.md §7). */
  readonly contentHash?: string;
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
 * never overwrite newer state, and nothing overwrites a final execution.
 */
export class CallbackService {
  constructor(
    private readonly port: CallbackPort,
    private readonly options: CallbackServiceOptions,
  ) {}

  async apply(input: CallbackInput, now: Date): Promise<CallbackResult> {
    const nowSeconds = epochSeconds(now);
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
    checkResult(input, task);
    // A final execution (SUCCEEDED, FAILED, TIMED_OUT, CANCELED) stays final whatever the
    // sequence: the inbox remembers the event, nothing else moves (docs/contract.md §7).
    // Precedence: duplicate > final execution > superseded > stale.
    if (isTerminal(execution.status)) {
      // Only the inbox is written, so nothing can have moved: recorded, a duplicate or a
      // conflicting reuse of the id.
      const result = await this.port.applyCallback({ inbox });
      if (result === 'id_conflict') throw idConflict(input.id);
      const outcome = result === 'duplicate' ? 'duplicate' : 'stale';
      return { outcome, taskId: task.id, sequence: unchanged(execution) };
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
              ...(newer && input.result ? { result: input.result } : {}),
            },
      task:
        newer && current
          ? { taskId: task.id, currentExecutionId: execution.id, status, progress, at }
          : undefined,
    });
    if (result === 'moved') return MOVED;
    if (result === 'duplicate') return { outcome: 'duplicate', taskId: task.id, sequence };
    if (result === 'id_conflict') throw idConflict(input.id);
    const outcome: CallbackOutcome = !newer ? 'stale' : current ? 'applied' : 'superseded';
    return { outcome, taskId: task.id, sequence };
  }
}

/**
 * §14 "Exports": SUCCEEDED carries `result`, only SUCCEEDED does, and its key is the one the
 * service chose for this execution. Anything else is refused before anything is recorded.
 */
function checkResult(input: CallbackInput, task: TaskRecord): void {
  if (input.status === 'SUCCEEDED' && !input.result) {
    throw new InvalidCallbackError('SUCCEEDED needs data.result.', [
      { path: 'body.data.result', message: 'required when data.status is SUCCEEDED' },
    ]);
  }
  if (!input.result) return;
  if (input.status !== 'SUCCEEDED') {
    throw new InvalidCallbackError('data.result comes only with SUCCEEDED.', [
      { path: 'body.data.result', message: 'allowed only when data.status is SUCCEEDED' },
    ]);
  }
  const expected = exportObjectKey(task.id, input.executionId, task.format);
  if (input.result.key !== expected) {
    throw new InvalidCallbackError('data.result.key is not the key of this execution.', [
      { path: 'body.data.result.key', message: `must be ${expected}` },
    ]);
  }
}

function idConflict(id: string): InvalidCallbackError {
  return new InvalidCallbackError(
    `Callback id ${id} was already received with other content; nothing was recorded.`,
  );
}

/** The sequence position of a callback that changes nothing. */
function unchanged(execution: ExecutionRecord): SequenceAdvance {
  return { position: 'stale', state: execution, newGaps: [] };
}
