import { describe, expect, it } from 'vitest';
import {
  type ExecutionRecord,
  newExecution,
  type TaskRecord,
} from '../../../../functions/domain/exports/model';
import { ExportResultService } from '../../../../functions/domain/exports/result';
import { fakeResultObjects } from '../../../support/fakes/exports';

const at = '2026-11-29T10:00:00.000Z';
const task: TaskRecord = {
  id: 't1',
  accountId: 'a1',
  ownerId: 'alice',
  format: 'json',
  status: 'SUCCEEDED',
  progress: 100,
  currentExecutionId: 'e2',
  createdAt: at,
  updatedAt: at,
};
const result = { key: 'exports/t1/e2.jsonl', rows: 4, bytes: 512, sha256: 'b'.repeat(64) };
const succeeded: ExecutionRecord = {
  ...newExecution('e2', 't1', 'app', new Date(at), 900),
  status: 'SUCCEEDED',
  result,
};
const earlier: ExecutionRecord = {
  ...newExecution('e1', 't1', 'app', new Date(at), 900),
  status: 'SUCCEEDED',
  result: { ...result, key: 'exports/t1/e1.jsonl' },
};

function service(executions: ExecutionRecord[], exists = true, t: Partial<TaskRecord> = {}) {
  const objects = fakeResultObjects({ exists: async () => exists });
  const tasks = { getTask: async () => ({ task: { ...task, ...t }, executions }) };
  return { objects, svc: new ExportResultService(tasks, objects, { retentionDays: 7 }) };
}

describe('GET /v1/tasks/{taskId}/result (docs/contract.md §12, §14)', () => {
  it('answers the current execution result with a 15-minute presigned URL', async () => {
    const { svc, objects } = service([earlier, succeeded]);
    const now = new Date('2026-11-29T11:00:00.000Z');
    expect(await svc.result('alice', 't1', now)).toEqual({
      format: 'json',
      rows: 4,
      bytes: 512,
      sha256: 'b'.repeat(64),
      url: 'https://s3.example/exports/t1/e2.jsonl?ttl=900',
      urlExpiresAt: '2026-11-29T11:15:00.000Z',
    });
    expect(objects.presignGet).toHaveBeenCalledWith('exports/t1/e2.jsonl', 900);
  });

  it('409 task_not_succeeded while the current execution has not SUCCEEDED (even if an older one did)', async () => {
    const { svc } = service([earlier, { ...succeeded, status: 'RUNNING' }], true, {
      status: 'RUNNING',
    });
    await expect(svc.result('alice', 't1', new Date(at))).rejects.toMatchObject({
      code: 'task_not_succeeded',
    });
  });

  it('410 result_expired once EXPORT_RETENTION_DAYS have passed, without asking S3', async () => {
    const { svc, objects } = service([succeeded]);
    await expect(
      svc.result('alice', 't1', new Date('2026-12-06T10:00:00.000Z')),
    ).rejects.toMatchObject({ code: 'result_expired' });
    expect(objects.exists).not.toHaveBeenCalled();
  });

  it('410 result_expired when the object is no longer in the bucket', async () => {
    const { svc } = service([succeeded], false);
    await expect(svc.result('alice', 't1', new Date(at))).rejects.toMatchObject({
      code: 'result_expired',
    });
  });

  it('404 for another principal', async () => {
    const { svc } = service([succeeded]);
    await expect(svc.result('bob', 't1', new Date(at))).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
