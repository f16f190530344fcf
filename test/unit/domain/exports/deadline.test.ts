import { describe, expect, it } from 'vitest';
import { executionDeadlineHandler } from '../../../../functions/domain/exports/deadline';
import {
  type ExecutionRecord,
  type ExecutionStatus,
  newExecution,
} from '../../../../functions/domain/exports/model';
import { fakeDeadlinePort } from '../../../support/fakes/exports';

const NOW = new Date('2026-03-01T10:15:00.000Z');
const TASK = 'task-1';
const EXEC = 'exec-1';
const item = { kind: 'execution', dueAt: NOW.getTime(), attributes: { taskId: TASK, id: EXEC } };
const decode = (a: Readonly<Record<string, unknown>>) => ({
  taskId: String(a.taskId),
  id: String(a.id),
});

function execution(status: ExecutionStatus, version: number): ExecutionRecord {
  return {
    ...newExecution(EXEC, TASK, 'export-worker', new Date('2026-03-01T10:00:00.000Z'), 900),
    status,
    version,
  };
}

describe('execution deadline sweep handler (docs/contract.md §12)', () => {
  it('times out a running current execution from the version it read, task included', async () => {
    const port = fakeDeadlinePort(
      [{ execution: execution('RUNNING', 4), currentExecutionId: EXEC }],
      ['committed'],
    );
    await expect(executionDeadlineHandler(port, decode).settle(item, NOW)).resolves.toBe('settled');
    expect(port.written).toEqual([
      {
        taskId: TASK,
        executionId: EXEC,
        expectedVersion: 4,
        current: true,
        progress: 0,
        at: NOW.toISOString(),
      },
    ]);
  });

  it('leaves the task alone when the execution is no longer its current one', async () => {
    const port = fakeDeadlinePort(
      [{ execution: execution('QUEUED', 2), currentExecutionId: 'exec-2' }],
      ['committed'],
    );
    await executionDeadlineHandler(port, decode).settle(item, NOW);
    expect(port.written[0]?.current).toBe(false);
  });

  it.each(['SUCCEEDED', 'FAILED', 'TIMED_OUT', 'CANCELED'] as const)(
    'is already done for a %s execution and writes nothing',
    async (status) => {
      const port = fakeDeadlinePort(
        [{ execution: execution(status, 3), currentExecutionId: EXEC }],
        [],
      );
      await expect(executionDeadlineHandler(port, decode).settle(item, NOW)).resolves.toBe(
        'already_done',
      );
      expect(port.written).toEqual([]);
    },
  );

  it('re-reads after a callback moved the version, then times out from the new one', async () => {
    const port = fakeDeadlinePort(
      [
        { execution: execution('RUNNING', 4), currentExecutionId: EXEC },
        { execution: execution('RUNNING', 5), currentExecutionId: EXEC },
      ],
      ['moved', 'committed'],
    );
    await expect(executionDeadlineHandler(port, decode).settle(item, NOW)).resolves.toBe('settled');
    expect(port.written.map((w) => w.expectedVersion)).toEqual([4, 5]);
  });

  it('is already done when the callback that moved it made it terminal', async () => {
    const port = fakeDeadlinePort(
      [
        { execution: execution('RUNNING', 4), currentExecutionId: EXEC },
        { execution: execution('SUCCEEDED', 5), currentExecutionId: EXEC },
      ],
      ['moved'],
    );
    await expect(executionDeadlineHandler(port, decode).settle(item, NOW)).resolves.toBe(
      'already_done',
    );
  });

  it('throws (the item stays due) when the execution keeps moving', async () => {
    const running = { execution: execution('RUNNING', 1), currentExecutionId: EXEC };
    const port = fakeDeadlinePort([running, running, running], ['moved', 'moved', 'moved']);
    await expect(executionDeadlineHandler(port, decode).settle(item, NOW)).rejects.toThrow(
      /kept moving/,
    );
  });

  it('is already done for an execution that no longer exists', async () => {
    const port = fakeDeadlinePort([undefined], []);
    await expect(executionDeadlineHandler(port, decode).settle(item, NOW)).resolves.toBe(
      'already_done',
    );
  });
});
