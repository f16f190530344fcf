import { describe, expect, it } from 'vitest';
import { MAX_RECEIVE_COUNT } from '../../../../functions/contract/names';
import type {
  ExportOutcome,
  ExportWorker,
  RunOptions,
} from '../../../../functions/domain/exports/worker';
import { createExportJobsConsumer } from '../../../../functions/handlers/export-worker/consumer';
import { sqsRecord } from '../../../../kit/ledger-events';
import { recordingMetrics } from '../../../support/fakes/metrics';
import { quietRuntime } from '../../../support/runtime';

const job = (executionId: string) => ({
  taskId: '11111111-1111-4111-8111-111111111111',
  executionId,
  accountId: '33333333-3333-4333-8333-333333333333',
  format: 'csv',
  callbackPath: '/v1/callbacks/export-worker',
});
const OK = '22222222-2222-4222-8222-000000000001';
const BROKEN = '22222222-2222-4222-8222-000000000002';
const DUPLICATE = '22222222-2222-4222-8222-000000000003';

function fakeWorker() {
  const runs: Array<{ executionId: string; options: RunOptions }> = [];
  let active = 0;
  let maxActive = 0;
  const worker = {
    async run(j: { executionId: string }, options: RunOptions): Promise<ExportOutcome> {
      runs.push({ executionId: j.executionId, options });
      active += 1;
      maxActive = Math.max(maxActive, active);
      await new Promise((resolve) => setTimeout(resolve, 1));
      active -= 1;
      if (j.executionId === BROKEN) throw new Error('S3 unavailable');
      if (j.executionId === DUPLICATE) return { kind: 'skipped', reason: 'finished' };
      return {
        kind: 'succeeded',
        outcome: 'applied',
        result: { key: 'k', rows: 1, bytes: 1, sha256: 'a' },
      };
    },
  };
  return { worker: worker as unknown as ExportWorker, runs, maxActive: () => maxActive };
}

const withReceives = (record: ReturnType<typeof sqsRecord>, count: number) => ({
  ...record,
  attributes: { ...record.attributes, ApproximateReceiveCount: String(count) },
});

describe('export-jobs consumer', () => {
  it('reports only the failed records, runs records one at a time, and counts outcomes', async () => {
    const fake = fakeWorker();
    const metrics = recordingMetrics();
    const handler = createExportJobsConsumer({
      ...quietRuntime(),
      worker: fake.worker,
      timeLeftMs: () => 42_000,
      metrics,
    });
    const records = [
      sqsRecord(job(OK), 'm1'),
      sqsRecord(job(BROKEN), 'm2'),
      sqsRecord(job(DUPLICATE), 'm3'),
    ];
    const response = await handler({ Records: records });
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm2' }] });
    expect(fake.maxActive()).toBe(1);
    // The lease ends 5 s before the invocation, the run's own timer 15 s before the lease.
    expect(fake.runs.map((r) => r.options.leaseMs)).toEqual([37_000, 37_000, 37_000]);
    expect(fake.runs.map((r) => r.options.giveUpMs)).toEqual([22_000, 22_000, 22_000]);
    expect(metrics.counts.get('ExportSucceeded')).toBe(1);
    expect(metrics.counts.get('ExportFailed')).toBe(1);
    expect(metrics.counts.get('ExportSkipped[reason=finished]')).toBe(1);
  });

  it.each([
    [1, false],
    [MAX_RECEIVE_COUNT - 1, false],
    [MAX_RECEIVE_COUNT, true],
  ])('receive %i is the final attempt: %s', async (receives, finalAttempt) => {
    const fake = fakeWorker();
    const handler = createExportJobsConsumer({
      ...quietRuntime(),
      worker: fake.worker,
      timeLeftMs: () => 1,
    });
    await handler({ Records: [withReceives(sqsRecord(job(OK)), receives)] });
    expect(fake.runs[0]?.options.finalAttempt).toBe(finalAttempt);
  });

  it.each(['not json', JSON.stringify({ ...job(OK), callbackPath: 'https://evil.example/x' })])(
    'leaves a malformed job for redrive to the DLQ without running it: %s',
    async (body) => {
      const fake = fakeWorker();
      const handler = createExportJobsConsumer({
        ...quietRuntime(),
        worker: fake.worker,
        timeLeftMs: () => 1,
      });
      const response = await handler({ Records: [sqsRecord(body, 'bad')] });
      expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'bad' }]);
      expect(fake.runs).toHaveLength(0);
    },
  );
});
