import { RESULT_URL_TTL_SECONDS } from '../../contract/exports';
import { OPERATION_IDS } from '../../domain/idempotency/operations';
import { AccountPath } from '../../schemas/accounts';
import {
  CreateExportBody,
  ExportResult,
  RerunBody,
  Task,
  TaskPath,
} from '../../schemas/exports/jobs';
import { named, type RouteDocs, type RouteTable } from '../spec';

const TASK = named('Task', Task);

/** Paid exports, tasks, their results and reruns (docs/contract.md §5, §12). */
export const EXPORT_ROUTES = {
  createExport: {
    method: 'POST',
    path: '/v1/accounts/{accountId}/exports',
    idempotency: OPERATION_IDS.createExport,
    tag: 'exports',
    params: AccountPath,
    body: named('CreateExport', CreateExportBody),
    response: { status: 202, body: TASK },
    problems: ['insufficient_funds', 'account_closed'],
  },
  getTask: {
    method: 'GET',
    path: '/v1/tasks/{taskId}',
    tag: 'exports',
    params: TaskPath,
    response: { status: 200, body: TASK },
  },
  getTaskResult: {
    method: 'GET',
    path: '/v1/tasks/{taskId}/result',
    tag: 'exports',
    params: TaskPath,
    response: {
      status: 200,
      body: named('ExportResult', ExportResult),
    },
    problems: ['task_not_succeeded', 'result_expired'],
  },
  rerunTask: {
    method: 'POST',
    path: '/v1/tasks/{taskId}/reruns',
    idempotency: OPERATION_IDS.rerunTask,
    tag: 'exports',
    params: TaskPath,
    body: named('Rerun', RerunBody),
    response: { status: 202, body: TASK },
    problems: ['task_not_terminal', 'rerun_limit_reached'],
  },
} as const satisfies RouteTable;

/** What the OpenAPI document says of each route of EXPORT_ROUTES (a function, so that nothing of it is evaluated, or bundled, where only the routes are used: the document's generator calls it). */
export const exportRouteDocs = (): RouteDocs<typeof EXPORT_ROUTES> => ({
  createExport: {
    summary: 'Export an account (paid)',
    description:
      'Debits the export fee and creates the task, its first execution and the export job ' +
      'in one transaction.',
    response: 'Task created',
  },
  getTask: {
    summary: 'Read a task',
    response: 'The task with its executions',
  },
  getTaskResult: {
    summary: "Read a task's export file",
    description:
      "The current execution's export file: format, rows (the CSV header excluded), bytes, " +
      `lowercase hex SHA-256 and a presigned GET valid ${RESULT_URL_TTL_SECONDS / 60} minutes.`,
    response: 'The result of the SUCCEEDED current execution',
  },
  rerunTask: {
    summary: 'Rerun a task',
    response: 'A new current execution',
  },
});
