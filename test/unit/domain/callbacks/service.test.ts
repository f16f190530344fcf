import { describe, expect, it } from 'vitest';
import { exportObjectKey } from '../../../../functions/contract/exports';
import type { CallbackWrite } from '../../../../functions/domain/callbacks/port';
import {
  type CallbackInput,
  CallbackService,
} from '../../../../functions/domain/callbacks/service';
import {
  type ExecutionRecord,
  newExecution,
  type TaskRecord,
} from '../../../../functions/domain/exports/model';
import { fakeCallbackPort } from '../../../support/fakes/callbacks';

const at = '2026-11-29T10:00:00.000Z';
const TASK = '0b7e8a5e-0000-4000-8000-000000000001';
const EXEC = '0b7e8a5e-0000-4000-8000-000000000002';
const task: TaskRecord = {
  id: TASK,
  accountId: 'a1',
  ownerId: 'alice',
  format: 'csv',
  status: 'RUNNING',
  progress: 10,
  currentExecutionId: EXEC,
  createdAt: at,
  updatedAt: at,
};
const running: ExecutionRecord = {
  ...newExecution(EXEC, TASK, 'app', new Date(at), 900),
  status: 'RUNNING',
  lastSequence: 1,
};
const result = {
  key: exportObjectKey(TASK, EXEC, 'csv'),
  rows: 3,
  bytes: 120,
  sha256: 'a'.repeat(64),
};

function setup(
  execution: ExecutionRecord,
  answer: 'committed' | 'duplicate' = 'committed',
  ofTask: TaskRecord = task,
) {
  const writes: CallbackWrite[] = [];
  const port = fakeCallbackPort({
    findExecution: async () => ({ execution, task: ofTask }),
    applyCallback: async (write) => {
      writes.push(write);
      return answer;
    },
  });
  const service = new CallbackService(port, { inboxRetentionSeconds: 60, sleep: async () => {} });
  const apply = (input: Partial<CallbackInput>) =>
    service.apply(
      { applicationId: 'app', id: crypto.randomUUID(), executionId: EXEC, sequence: 2, ...input },
      new Date(at),
    );
  return { apply, writes, port };
}

describe('export callbacks (docs/contract.md §12, §14 "Exports")', () => {
  it('keeps data.result on the execution with SUCCEEDED', async () => {
    const { apply, writes } = setup(running);
    const answer = await apply({ status: 'SUCCEEDED', progress: 100, result });
    expect(answer.outcome).toBe('applied');
    expect(writes[0]?.execution).toMatchObject({ status: 'SUCCEEDED', result });
    expect(writes[0]?.task).toMatchObject({ status: 'SUCCEEDED' });
  });

  it('refuses SUCCEEDED without result: 400 invalid_callback, nothing recorded', async () => {
    const { apply, port } = setup(running);
    await expect(apply({ status: 'SUCCEEDED' })).rejects.toMatchObject({
      code: 'invalid_callback',
    });
    expect(port.applyCallback).not.toHaveBeenCalled();
  });

  it('refuses a result naming another key', async () => {
    const { apply, port } = setup(running);
    const other = { ...result, key: `exports/${TASK}/${EXEC}.jsonl` };
    await expect(apply({ status: 'SUCCEEDED', result: other })).rejects.toMatchObject({
      code: 'invalid_callback',
    });
    expect(port.applyCallback).not.toHaveBeenCalled();
  });

  it('refuses a result with a status other than SUCCEEDED', async () => {
    const { apply } = setup(running);
    await expect(apply({ status: 'RUNNING', result })).rejects.toMatchObject({
      code: 'invalid_callback',
    });
  });

  it('answers stale for a TIMED_OUT execution and writes the inbox record only', async () => {
    const { apply, writes } = setup({ ...running, status: 'TIMED_OUT' });
    const answer = await apply({ status: 'SUCCEEDED', progress: 100, result, sequence: 9 });
    expect(answer.outcome).toBe('stale');
    expect(writes).toHaveLength(1);
    expect(writes[0]?.execution).toBeUndefined();
    expect(writes[0]?.task).toBeUndefined();
    expect(writes[0]?.inbox).toBeDefined();
  });

  it('answers duplicate before timed-out (precedence duplicate > TIMED_OUT)', async () => {
    const { apply } = setup({ ...running, status: 'TIMED_OUT' }, 'duplicate');
    expect((await apply({ status: 'RUNNING', sequence: 9 })).outcome).toBe('duplicate');
  });
});

describe('a final execution stays final (docs/contract.md §7, §12)', () => {
  const finished = { ...running, lastSequence: 5, result } satisfies ExecutionRecord;

  it.each(['SUCCEEDED', 'FAILED', 'TIMED_OUT', 'CANCELED'] as const)(
    'answers a later callback about a %s execution stale and writes the inbox record only',
    async (status) => {
      const { apply, writes } = setup({ ...finished, status });
      const answer = await apply({ status: 'RUNNING', progress: 50, sequence: 6 });
      expect(answer.outcome).toBe('stale');
      expect(answer.sequence.position).toBe('stale');
      expect(writes).toHaveLength(1);
      expect(writes[0]?.execution).toBeUndefined();
      expect(writes[0]?.task).toBeUndefined();
      expect(writes[0]?.inbox).toBeDefined();
    },
  );

  it('is final before superseded: a late callback about a replaced SUCCEEDED execution', async () => {
    const { apply, writes } = setup({ ...finished, status: 'SUCCEEDED' }, 'committed', {
      ...task,
      currentExecutionId: crypto.randomUUID(),
    });
    expect((await apply({ status: 'RUNNING', sequence: 6 })).outcome).toBe('stale');
    expect(writes[0]?.execution).toBeUndefined();
  });

  it('answers duplicate before final (precedence duplicate > final execution)', async () => {
    const { apply } = setup({ ...finished, status: 'FAILED' }, 'duplicate');
    expect((await apply({ status: 'RUNNING', sequence: 6 })).outcome).toBe('duplicate');
  });

  it('still answers superseded for a replaced execution that is not final', async () => {
    const { apply, writes } = setup({ ...running, status: 'RUNNING' }, 'committed', {
      ...task,
      currentExecutionId: crypto.randomUUID(),
    });
    expect((await apply({ status: 'RUNNING', sequence: 2, progress: 20 })).outcome).toBe(
      'superseded',
    );
    expect(writes[0]?.execution).toMatchObject({ progress: 20 });
    expect(writes[0]?.task).toBeUndefined();
  });
});
