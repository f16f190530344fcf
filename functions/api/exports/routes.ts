import type { ExportResultService } from '../../domain/exports/result';
import type { TaskService } from '../../domain/exports/service';
import { AccountPath } from '../../schemas/accounts';
import { CreateExportBody, RerunBody, TaskPath } from '../../schemas/exports';
import { commandInput, commandResult } from '../commands';
import { principalOf } from '../principal';
import { parseWith } from '../request';
import { json } from '../respond';
import type { Route } from '../router';

/** Paid exports, tasks, their results and reruns (docs/contract.md §5, §12). */
export function taskRoutes(
  service: TaskService,
  results: ExportResultService,
  clock: () => Date,
): Route[] {
  return [
    {
      key: 'POST /v1/accounts/{accountId}/exports',
      handle: async (request) => {
        principalOf(request.event);
        const { accountId } = parseWith(AccountPath, request.pathParameters, 'path');
        const { ctx, body } = commandInput(request, clock());
        const input = parseWith(CreateExportBody, body, 'body');
        return commandResult(await service.createExport(ctx, accountId, input.format, body));
      },
    },
    {
      key: 'GET /v1/tasks/{taskId}',
      handle: async (request) => {
        const principal = principalOf(request.event);
        const { taskId } = parseWith(TaskPath, request.pathParameters, 'path');
        return json(200, await service.getTask(principal, taskId));
      },
    },
    {
      key: 'GET /v1/tasks/{taskId}/result',
      handle: async (request) => {
        const principal = principalOf(request.event);
        const { taskId } = parseWith(TaskPath, request.pathParameters, 'path');
        return json(200, await results.result(principal, taskId, clock()));
      },
    },
    {
      key: 'POST /v1/tasks/{taskId}/reruns',
      handle: async (request) => {
        principalOf(request.event);
        const { taskId } = parseWith(TaskPath, request.pathParameters, 'path');
        const { ctx, body } = commandInput(request, clock());
        parseWith(RerunBody, body, 'body');
        return commandResult(await service.rerun(ctx, taskId, body));
      },
    },
  ];
}
