import { describe, expect, it, vi } from 'vitest';
import { type CallbackPort, CallbackService } from '../../../functions/core/callback-service';
import type { TaskPort } from '../../../functions/core/task-ports';
import { TaskService } from '../../../functions/core/task-service';
import { newExecution, type TaskRecord } from '../../../functions/core/tasks';
import { httpResponses } from '../../../functions/http/problems';

const at = '2026-11-29T10:00:00.000Z';
const ctx = { principal: 'alice', idempotencyKey: 'k', now: new Date(at) };
const task: TaskRecord = {
  id: 't1',
  accountId: 'a1',
  ownerId: 'alice',
  format: 'csv',
  status: 'FAILED',
  progress: 40,
  currentExecutionId: 'e1',
  createdAt: at,
  updatedAt: at,
};
const execution = { ...newExecution('e1', 't1', 'app', at), status: 'FAILED' as const };

function port(overrides: Partial<TaskPort>): TaskPort {
  return {
    getAccount: vi.fn(),
    getTask: vi.fn(async () => ({ task, executions: [execution] })),
    createExport: vi.fn(),
    rerun: vi.fn(),
    recordResponse: vi.fn(async () => ({ kind: 'recorded' as const })),
    ...overrides,
  };
}

const service = (p: TaskPort) =>
  new TaskService(p, {
    idempotencyRetentionSeconds: 60,
    exportFee: 100,
    callbackApplicationId: 'app',
    callbackPath: '/v1/callbacks/app',
    responses: httpResponses,
  });

describe('reruns', () => {
  it('records task_not_terminal when another rerun moved the task between read and write', async () => {
    const p = port({
      rerun: vi.fn(async () => ({
        kind: 'task_rejected' as const,
        task: { ...task, status: 'CREATED' as const },
      })),
    });
    const res = await service(p).rerun(ctx, 't1', {});
    expect(res.statusCode).toBe(409);
    expect(JSON.parse(res.body).code).toBe('task_not_terminal');
    expect(p.recordResponse).toHaveBeenCalledOnce();
  });

  it('answers 404 when the task vanished or changed owner meanwhile', async () => {
    const p = port({
      rerun: vi.fn(async () => ({ kind: 'task_rejected' as const, task: undefined })),
    });
    await expect(service(p).rerun(ctx, 't1', {})).rejects.toMatchObject({ code: 'not_found' });
    expect(p.recordResponse).not.toHaveBeenCalled();
  });

  it('refuses with one conditional put while the current execution runs', async () => {
    const p = port({
      getTask: vi.fn(async () => ({
        task: { ...task, status: 'RUNNING' as const },
        executions: [execution],
      })),
    });
    const res = await service(p).rerun(ctx, 't1', {});
    expect(res.statusCode).toBe(409);
    expect(p.rerun).not.toHaveBeenCalled();
  });
});

describe('callbacks under contention', () => {
  it('answers 503 unavailable (retry later) when the execution keeps moving', async () => {
    const callbacks = new CallbackService(
      {
        findExecution: async () => ({ execution: { ...execution, applicationId: 'app' }, task }),
        applyCallback: async () => 'moved',
      },
      { inboxRetentionSeconds: 60, maxAttempts: 3, sleep: async () => {} },
    );
    await expect(
      callbacks.apply(
        { applicationId: 'app', id: 'c', executionId: 'e1', sequence: 2 },
        new Date(),
      ),
    ).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('writes only the inbox record for a stale number that fills no gap', async () => {
    const applyCallback = vi.fn<CallbackPort['applyCallback']>(async () => 'committed');
    const callbacks = new CallbackService(
      {
        findExecution: async () => ({
          execution: { ...execution, applicationId: 'app', lastSequence: 5, gaps: [3] },
          task,
        }),
        applyCallback,
      },
      { inboxRetentionSeconds: 60 },
    );
    const stale = await callbacks.apply(
      { applicationId: 'app', id: 'c1', executionId: 'e1', sequence: 4 },
      new Date(),
    );
    expect(stale.outcome).toBe('stale');
    expect(applyCallback.mock.calls[0]?.[0].execution).toBeUndefined();
    await callbacks.apply(
      { applicationId: 'app', id: 'c2', executionId: 'e1', sequence: 3, status: 'RUNNING' },
      new Date(),
    );
    const gapFill = applyCallback.mock.calls[1]?.[0];
    expect(gapFill?.execution).toMatchObject({ at, status: 'FAILED', sequence: { gaps: [] } });
  });
});
