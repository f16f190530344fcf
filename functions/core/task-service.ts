import {
  InsufficientFundsError,
  InternalError,
  RerunLimitReachedError,
  TaskNotTerminalError,
} from './errors';
import type { Json } from './fingerprint';
import {
  buildClaim,
  type CommandContext,
  type CommandResponse,
  firstResponse,
  recordRejection,
  replayOrReject,
} from './idempotent-command';
import { type LedgerEntry, ownedBy } from './model';
import type { TaskPort } from './task-ports';
import {
  type ExportFormat,
  type ExportJob,
  isTerminal,
  newExecution,
  type TaskRecord,
  type TaskState,
  TERMINAL_STATUSES,
  taskView,
} from './tasks';

export const TASK_OPERATIONS = {
  createExport: 'POST /v1/accounts/{accountId}/exports',
  rerun: 'POST /v1/tasks/{taskId}/reruns',
} as const;

export interface TaskServiceOptions {
  readonly idempotencyRetentionSeconds: number;
  /** Fee debited per export, in the account's minor units. */
  readonly exportFee: number;
  /** The application whose signed callbacks report on executions. */
  readonly callbackApplicationId: string;
  /** Each execution's deadline is its creation plus this (EXPORT_EXECUTION_TIMEOUT_SECONDS). */
  readonly executionTimeoutSeconds: number;
  /** Reruns a task accepts; the next is `409 rerun_limit_reached` (MAX_RERUNS_PER_TASK). */
  readonly maxReruns: number;
  readonly newId?: () => string;
}

/** Paid export tasks and reruns: fee, task, execution and outbox message commit together. */
export class TaskService {
  private readonly newId: () => string;

  constructor(
    private readonly port: TaskPort,
    private readonly options: TaskServiceOptions,
  ) {
    this.newId = options.newId ?? (() => crypto.randomUUID());
  }

  async createExport(
    ctx: CommandContext,
    accountId: string,
    format: ExportFormat,
    rawBody: Json,
  ): Promise<CommandResponse> {
    const account = ownedBy(await this.port.getAccount(accountId), ctx.principal, 'Account');
    const at = ctx.now.toISOString();
    const taskId = this.newId();
    const execution = this.newExecution(taskId, ctx.now);
    const task: TaskRecord = {
      id: taskId,
      accountId,
      ownerId: ctx.principal,
      format,
      status: execution.status,
      progress: 0,
      currentExecutionId: execution.id,
      rerunCount: 0,
      createdAt: at,
      updatedAt: at,
    };
    const fee: LedgerEntry = {
      id: this.newId(),
      accountId,
      type: 'debit',
      amount: this.options.exportFee,
      currency: account.currency,
      reference: `export fee, task ${taskId}`,
      origin: 'http',
      createdAt: at,
    };
    const claim = buildClaim(ctx, {
      operation: TASK_OPERATIONS.createExport,
      pathParameters: { accountId },
      rawBody,
      statusCode: 202,
      responseBody: taskView({ task, executions: [execution] }),
      retentionSeconds: this.options.idempotencyRetentionSeconds,
    });
    const job = this.job(task, execution.id);
    const result = await this.port.createExport(claim, { task, execution, job, fee });
    switch (result.kind) {
      case 'committed':
        return firstResponse(claim);
      case 'claimed':
        return replayOrReject(claim, result.record);
      case 'account_rejected': {
        const now = ownedBy(result.account, ctx.principal, 'Account');
        if (now.balance < fee.amount) {
          return recordRejection(this.port, claim, new InsufficientFundsError());
        }
        throw new InternalError(new Error('fee guard failed without a failing rule'));
      }
      case 'payment_id_taken':
        throw new InternalError(new Error('an export carries no paymentId'));
    }
  }

  async rerun(ctx: CommandContext, taskId: string, rawBody: Json): Promise<CommandResponse> {
    const state = await this.ownedTask(ctx.principal, taskId);
    const at = ctx.now.toISOString();
    const execution = this.newExecution(taskId, ctx.now);
    const reruns = state.task.rerunCount ?? 0;
    const task: TaskRecord = {
      ...state.task,
      status: execution.status,
      progress: 0,
      currentExecutionId: execution.id,
      rerunCount: reruns + 1,
      updatedAt: at,
    };
    const claim = buildClaim(ctx, {
      operation: TASK_OPERATIONS.rerun,
      pathParameters: { taskId },
      rawBody,
      statusCode: 202,
      responseBody: taskView({ task, executions: [...state.executions, execution] }),
      retentionSeconds: this.options.idempotencyRetentionSeconds,
    });
    // Refusals are recorded (one round trip; an earlier claim still replays). The limit is
    // permanent, so it is named first.
    const refusal = this.rerunRefusal(state.task);
    if (refusal) return recordRejection(this.port, claim, refusal);
    const result = await this.port.rerun(claim, {
      task,
      execution,
      job: this.job(task, execution.id),
      allowedStatuses: TERMINAL_STATUSES,
      expectedCurrentExecutionId: state.task.currentExecutionId,
      expectedRerunCount: reruns,
    });
    switch (result.kind) {
      case 'committed':
        return firstResponse(claim);
      case 'claimed':
        return replayOrReject(claim, result.record);
      case 'task_rejected': {
        const now = ownedBy(result.task, ctx.principal, 'Task');
        // Another rerun (or a callback) moved the task since it was read.
        return recordRejection(
          this.port,
          claim,
          this.rerunRefusal(now) ?? new TaskNotTerminalError(),
        );
      }
      default:
        throw new InternalError(new Error(`unexpected rerun outcome ${result.kind}`));
    }
  }

  async getTask(principal: string, taskId: string) {
    return taskView(await this.ownedTask(principal, taskId));
  }

  /** Why a rerun of this task is refused now, or undefined when it may go ahead. */
  private rerunRefusal(task: TaskRecord) {
    if ((task.rerunCount ?? 0) >= this.options.maxReruns) {
      return new RerunLimitReachedError(this.options.maxReruns);
    }
    if (!isTerminal(task.status)) return new TaskNotTerminalError();
    return undefined;
  }

  private newExecution(taskId: string, at: Date) {
    return newExecution(
      this.newId(),
      taskId,
      this.options.callbackApplicationId,
      at,
      this.options.executionTimeoutSeconds,
    );
  }

  private async ownedTask(principal: string, taskId: string): Promise<TaskState> {
    const state = await this.port.getTask(taskId);
    // Owner-checked through the account: the task carries its account's owner.
    const task = ownedBy(state?.task, principal, 'Task');
    return { task, executions: state?.executions ?? [] };
  }

  private job(task: TaskRecord, executionId: string): ExportJob {
    return {
      taskId: task.id,
      executionId,
      accountId: task.accountId,
      format: task.format,
      callbackPath: `/v1/callbacks/${this.options.callbackApplicationId}`,
    };
  }
}
