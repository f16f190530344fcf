import type { ExportResultService } from '../../domain/exports/result';
import type { TaskService } from '../../domain/exports/service';
import type { RouteHandlers } from '../router';
import type { EXPORT_ROUTES } from './spec';

/** Paid exports, tasks, their results and reruns (docs/contract.md §5, §12). */
export function exportHandlers(
  service: TaskService,
  results: ExportResultService,
  clock: () => Date,
): RouteHandlers<typeof EXPORT_ROUTES> {
  return {
    createExport: ({ params, command }) =>
      service.createExport(command.ctx, params.accountId, command.input.format, command.body),
    getTask: ({ principal, params }) => service.getTask(principal, params.taskId),
    getTaskResult: ({ principal, params }) => results.result(principal, params.taskId, clock()),
    rerunTask: ({ params, command }) => service.rerun(command.ctx, params.taskId, command.body),
  };
}
