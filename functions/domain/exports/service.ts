import type { ExportFormat } from '../../contract/exports';
import { notFound, owned, ownedBy, type PostingEntry } from '../accounts/model';
import type { Json } from '../idempotency/fingerprint';
import type {
  CommandContext,
  CommandResponse,
  CommandServiceOptions,
} from '../idempotency/idempotent-command';
import { OPERATION_IDS } from '../idempotency/operations';
import type { EntryGuard } from '../movements/guard';
import { postingGuard } from '../movements/legs';
import { exportOnce, requestRefusal } from '../movements/once';
import { MovingService } from '../movements/service';
import { InternalError, RerunLimitReachedError, TaskNotTerminalError } from '../shared/errors';
import {
  type ExecutionRecord,
  type ExportJob,
  isTerminal,
  newExecution,
  type TaskRecord,
  type TaskState,
  TERMINAL_STATUSES,
  taskView,
} from './model';
import type { TaskPort } from './port';

export interface TaskServiceOptions extends CommandServiceOptions {
  /** Fee debited per export, in the account's minor units. */
  readonly exportFee: number;
  /** The application whose signed callbacks report on executions. */
  readonly callbackApplicationId: string;
  /** Where the worker posts its signed callbacks; the transport owns its routes. */
  readonly callbackPath: string;
  /** Each execution's deadline is its creation plus this (EXPORT_EXECUTION_TIMEOUT_SECONDS). */
  readonly executionTimeoutSeconds: number;
  /** Reruns a task accepts; the next is `409 rerun_limit_reached` (MAX_RERUNS_PER_TASK). */
  readonly maxReruns: number;
}

/**
 * Paid export tasks and reruns: fee, task, execution and outbox message commit together. The
 * fee is a debit, the movements' own (docs/contract.md §23); its claim writes the export.
 */
export class TaskService extends MovingService<TaskPort, TaskServiceOptions> {
  async createExport(
    ctx: CommandContext,
    accountId: string,
    format: ExportFormat,
    rawBody: Json,
  ): Promise<CommandResponse> {
    const request = {
      operation: OPERATION_IDS.createExport,
      pathParameters: { accountId },
      rawBody,
    };
    const account = owned(await this.port.getAccount(accountId), ctx.principal);
    // A 404 read from storage comes after the key check (docs/contract.md §4).
    if (!account) return this.commands.refuse(this.commands.key(ctx, request), notFound('Account'));
    const at = ctx.now.toISOString();
    const taskId = this.commands.newId();
    const execution = this.newExecution(taskId, ctx.now);
    const task: TaskRecord = {
      id: taskId,
      accountId,
      ownerId: ctx.principal,
      format,
      ...asCurrent(execution),
      rerunCount: 0,
      createdAt: at,
      updatedAt: at,
    };
    const fee: PostingEntry = {
      id: this.commands.newId(),
      accountId,
      type: 'debit',
      amount: this.options.exportFee,
      currency: account.currency,
      reference: `export fee, task ${taskId}`,
      origin: 'http',
      createdAt: at,
      effectiveAt: at,
    };
    const claim = this.commands.claim(ctx, {
      ...request,
      resource: taskView({ task, executions: [execution] }),
      outcome: 'accepted',
    });
    // A fee is a debit: of an open account, within what it may draw on (§11, §17).
    const guard: EntryGuard = postingGuard(fee, ctx.principal);
    const job = this.job(task, execution.id);
    const result = await this.movements.post(exportOnce(claim, { task, execution, job }), {
      entry: fee,
      guard,
    });
    return this.commands.settle(claim, result, requestRefusal);
  }

  async rerun(ctx: CommandContext, taskId: string, rawBody: Json): Promise<CommandResponse> {
    const request = { operation: OPERATION_IDS.rerunTask, pathParameters: { taskId }, rawBody };
    const read = await this.port.getTask(taskId);
    const owner = owned(read?.task, ctx.principal);
    if (!owner) return this.commands.refuse(this.commands.key(ctx, request), notFound('Task'));
    const state: TaskState = { task: owner, executions: read?.executions ?? [] };
    const at = ctx.now.toISOString();
    const execution = this.newExecution(taskId, ctx.now);
    const reruns = state.task.rerunCount ?? 0;
    const task: TaskRecord = {
      ...state.task,
      ...asCurrent(execution),
      rerunCount: reruns + 1,
      updatedAt: at,
    };
    const claim = this.commands.claim(ctx, {
      ...request,
      resource: taskView({ task, executions: [...state.executions, execution] }),
      outcome: 'accepted',
    });
    // Refusals are recorded (one round trip; an earlier claim still replays). The limit is
    // permanent, so it is named first.
    const refusal = this.rerunRefusal(state.task);
    if (refusal) return this.commands.reject(claim, refusal);
    const result = await this.port.rerun(claim, {
      task,
      execution,
      job: this.job(task, execution.id),
      allowedStatuses: TERMINAL_STATUSES,
      expectedCurrentExecutionId: state.task.currentExecutionId,
      expectedRerunCount: reruns,
    });
    return this.commands.settle(claim, result, (rejected) => {
      if (rejected.kind !== 'task_rejected') {
        return new InternalError(new Error(`unexpected rerun outcome ${rejected.kind}`));
      }
      // Another rerun (or a callback) moved the task since it was read; not_found if it is gone.
      const now = ownedBy(rejected.task, ctx.principal, 'Task');
      return this.rerunRefusal(now) ?? new TaskNotTerminalError();
    });
  }

  async getTask(principal: string, taskId: string) {
    return taskView(await this.ownedTask(principal, taskId));
  }

  private async ownedTask(principal: string, taskId: string): Promise<TaskState> {
    const state = await this.port.getTask(taskId);
    // Owner-checked through the account: the task carries its account's owner.
    const task = ownedBy(state?.task, principal, 'Task');
    return { task, executions: state?.executions ?? [] };
  }

  /** Why a rerun of this task is refused now, or undefined when it may go ahead. */
  private rerunRefusal(task: TaskRecord) {
    if ((task.rerunCount ?? 0) >= this.options.maxReruns) {
      return new RerunLimitReachedError(this.options.maxReruns);
    }
    if (!isTerminal(task.status)) return new TaskNotTerminalError();
    return undefined;
  }

  /** A new execution, due at `at + EXPORT_EXECUTION_TIMEOUT_SECONDS` (its deadline). */
  private newExecution(taskId: string, at: Date): ExecutionRecord {
    return newExecution(
      this.commands.newId(),
      taskId,
      this.options.callbackApplicationId,
      at,
      this.options.executionTimeoutSeconds,
    );
  }

  private job(task: TaskRecord, executionId: string): ExportJob {
    return {
      taskId: task.id,
      executionId,
      accountId: task.accountId,
      format: task.format,
      callbackPath: this.options.callbackPath,
    };
  }
}

/** The task fields that follow its current execution: a new one starts from zero. */
function asCurrent(execution: ExecutionRecord) {
  return { status: execution.status, progress: 0, currentExecutionId: execution.id };
}
