import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { httpResponses } from '../../../../functions/api/problems';
import { CallbackService } from '../../../../functions/domain/callbacks/service';
import { newExecution, type TaskRecord } from '../../../../functions/domain/exports/model';
import type { TaskPort } from '../../../../functions/domain/exports/port';
import { TaskService } from '../../../../functions/domain/exports/service';
import { fakeCallbackPort } from '../../../support/fakes/callbacks';
import { fakeTaskPort } from '../../../support/fakes/exports';
import { fakeMovementPort } from '../../../support/fakes/ledger/movements';

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
const execution = {
  ...newExecution('e1', 't1', 'app', new Date(at), 900),
  status: 'FAILED' as const,
};

const port = (overrides: Partial<TaskPort>) =>
  fakeTaskPort({ getTask: async () => ({ task, executions: [execution] }), ...overrides });

const service = (p: TaskPort) =>
  new TaskService(p, fakeMovementPort(), {
    idempotencyRetentionSeconds: 60,
    exportFee: 100,
    callbackApplicationId: 'app',
    callbackPath: '/v1/callbacks/app',
    responses: httpResponses,

    executionTimeoutSeconds: 900,
    maxReruns: 3,
    newId: randomUUID,
  });

describe('reruns', () => {
  it('records task_not_terminal when another rerun moved the task between read and write', async () => {
    const p = port({
      rerun: async () => ({
        kind: 'task_rejected' as const,
        task: { ...task, status: 'CREATED' as const },
      }),
    });
    const res = await service(p).rerun(ctx, 't1', {});
    expect(res.statusCode).toBe(409);
    expect(JSON.parse(res.body).code).toBe('task_not_terminal');
    expect(p.recordResponse).toHaveBeenCalledOnce();
  });

  it('answers 404 when the task vanished or changed owner meanwhile', async () => {
    const p = port({
      rerun: async () => ({ kind: 'task_rejected' as const, task: undefined }),
    });
    await expect(service(p).rerun(ctx, 't1', {})).rejects.toMatchObject({ code: 'not_found' });
    expect(p.recordResponse).not.toHaveBeenCalled();
  });

  it('refuses with one conditional put while the current execution runs', async () => {
    const p = port({
      getTask: async () => ({
        task: { ...task, status: 'RUNNING' as const },
        executions: [execution],
      }),
    });
    const res = await service(p).rerun(ctx, 't1', {});
    expect(res.statusCode).toBe(409);
    expect(p.rerun).not.toHaveBeenCalled();
  });
});

describe('rerun limit (MAX_RERUNS_PER_TASK)', () => {
  it('records 409 rerun_limit_reached once the task was rerun the maximum times', async () => {
    const p = port({
      getTask: async () => ({ task: { ...task, rerunCount: 3 }, executions: [execution] }),
    });
    const res = await service(p).rerun(ctx, 't1', {});
    expect(res.statusCode).toBe(409);
    expect(JSON.parse(res.body).code).toBe('rerun_limit_reached');
    expect(p.rerun).not.toHaveBeenCalled();
    expect(p.recordResponse).toHaveBeenCalledOnce();
  });

  it('allows the last rerun below the limit and counts it from the count read', async () => {
    const p = port({
      getTask: async () => ({ task: { ...task, rerunCount: 2 }, executions: [execution] }),
    });
    const res = await service(p).rerun(ctx, 't1', {});
    expect(res.statusCode).toBe(202);
    expect(p.rerun).toHaveBeenCalledWith(
      expect.anything(),
      expect.objectContaining({
        expectedRerunCount: 2,
        task: expect.objectContaining({ rerunCount: 3 }),
      }),
    );
  });

  it('names the limit when a concurrent rerun reached it between read and write', async () => {
    const p = port({
      rerun: async () => ({
        kind: 'task_rejected' as const,
        task: { ...task, rerunCount: 3, status: 'CREATED' as const },
      }),
    });
    const res = await service(p).rerun(ctx, 't1', {});
    expect(JSON.parse(res.body).code).toBe('rerun_limit_reached');
  });
});

describe('executions: deadline and bounded bodies', () => {
  it('gives a new execution deadline = creation + EXPORT_EXECUTION_TIMEOUT_SECONDS', async () => {
    const res = await service(port({})).rerun(ctx, 't1', {});
    const body = JSON.parse(res.body);
    const created = body.executions.at(-1);
    expect(created.deadline).toBe('2026-11-29T10:15:00.000Z');
    expect(created.createdAt).toBe(at);
  });

  it('lists the 20 newest executions (oldest first) with executionsTruncated in the stored response', async () => {
    const many = Array.from({ length: 25 }, (_, i) => ({
      ...newExecution(
        `e${String(i).padStart(2, '0')}`,
        't1',
        'app',
        new Date(Date.parse(at) + i * 1000),
        900,
      ),
      status: 'FAILED' as const,
    }));
    const p = port({
      getTask: async () => ({
        task: { ...task, currentExecutionId: 'e24' },
        executions: many,
      }),
    });
    const res = await service(p).rerun(
      { ...ctx, now: new Date(Date.parse(at) + 60_000) },
      't1',
      {},
    );
    const body = JSON.parse(res.body);
    expect(body.executions).toHaveLength(20);
    expect(body.executionsTruncated).toBe(true);
    expect(body.executions[0].id).toBe('e06');
    expect(body.executions.at(-1).id).toBe(body.currentExecutionId);
  });

  it('says executionsTruncated: false when every execution is listed', async () => {
    const body = await service(port({})).getTask('alice', 't1');
    expect(body.executionsTruncated).toBe(false);
    expect(body.executions).toHaveLength(1);
  });
});

describe('callbacks under contention', () => {
  // Callbacks about a final execution change nothing (docs/contract.md §7): these run one.
  const running = { ...execution, status: 'RUNNING' as const };

  it('answers 503 unavailable (retry later) when the execution keeps moving', async () => {
    const callbacks = new CallbackService(
      fakeCallbackPort({
        findExecution: async () => ({ execution: { ...running, applicationId: 'app' }, task }),
        applyCallback: async () => 'moved',
      }),
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
    const port = fakeCallbackPort({
      findExecution: async () => ({
        execution: { ...running, applicationId: 'app', lastSequence: 5, gaps: [3] },
        task,
      }),
    });
    const callbacks = new CallbackService(port, { inboxRetentionSeconds: 60 });
    const stale = await callbacks.apply(
      { applicationId: 'app', id: 'c1', executionId: 'e1', sequence: 4 },
      new Date(),
    );
    expect(stale.outcome).toBe('stale');
    expect(port.applyCallback.mock.calls[0]?.[0].execution).toBeUndefined();
    await callbacks.apply(
      { applicationId: 'app', id: 'c2', executionId: 'e1', sequence: 3, status: 'RUNNING' },
      new Date(),
    );
    const gapFill = port.applyCallback.mock.calls[1]?.[0];
    expect(gapFill?.execution).toMatchObject({ at, status: 'RUNNING', sequence: { gaps: [] } });
  });
});
