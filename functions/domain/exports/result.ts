import type { ExportFormat } from '../../contract/exports';
import { RESULT_URL_TTL_SECONDS } from '../../contract/exports';
import { ownedBy } from '../accounts/model';
import { ResultExpiredError, TaskNotSucceededError } from '../shared/errors';
import { DAY_MS } from '../shared/time';
import type { ResultObjectPort, TaskPort } from './port';

export interface ExportResultView {
  readonly format: ExportFormat;
  readonly rows: number;
  readonly bytes: number;
  readonly sha256: string;
  readonly url: string;
  readonly urlExpiresAt: string;
}

export interface ExportResultOptions {
  /** Days objects are kept (EXPORT_RETENTION_DAYS): past them the answer is 410 at once. */
  readonly retentionDays: number;
}

/**
 * `GET /v1/tasks/{taskId}/result` (docs/contract.md §12, §14 "Exports"): the current execution's
 * object as a 15-minute download link with its measurements. Not SUCCEEDED → 409
 * `task_not_succeeded`; older than the retention or no longer in the bucket → 410
 * `result_expired`.
 */
export class ExportResultService {
  constructor(
    private readonly tasks: Pick<TaskPort, 'getTask'>,
    private readonly objects: ResultObjectPort,
    private readonly options: ExportResultOptions,
  ) {}

  async result(principal: string, taskId: string, now: Date): Promise<ExportResultView> {
    const state = await this.tasks.getTask(taskId);
    const task = ownedBy(state?.task, principal, 'Task');
    const current = state?.executions.find((e) => e.id === task.currentExecutionId);
    if (current?.status !== 'SUCCEEDED' || !current.result) throw new TaskNotSucceededError();
    const { result } = current;
    const keptUntil = Date.parse(current.updatedAt) + this.options.retentionDays * DAY_MS;
    if (now.getTime() >= keptUntil || !(await this.objects.exists(result.key))) {
      throw new ResultExpiredError(this.options.retentionDays);
    }
    const url = await this.objects.presignGet(result.key, RESULT_URL_TTL_SECONDS);
    return {
      format: task.format,
      rows: result.rows,
      bytes: result.bytes,
      sha256: result.sha256,
      url,
      urlExpiresAt: new Date(now.getTime() + RESULT_URL_TTL_SECONDS * 1000).toISOString(),
    };
  }
}
