import { createHash, randomUUID } from 'node:crypto';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { createS3ObjectSink } from '../../../../functions/aws/s3-object-sink';
import type { LedgerEntry } from '../../../../functions/domain/accounts/model';
import { readEntry } from '../../../../functions/domain/accounts/model';
import type { ExportRunPort } from '../../../../functions/domain/exports/port';
import { ExportWorker, RunOutOfTimeError } from '../../../../functions/domain/exports/worker';
import { createCallbackReporter } from '../../../../functions/handlers/export-worker/callback-reporter';
import { createExportJobsConsumer } from '../../../../functions/handlers/export-worker/consumer';
import { sqsRecord } from '../../../../kit/ledger-events';
import { EXPORT_JOB, exportAppSecrets } from '../../../support/export-job';
import { fakeExportRunPort } from '../../../support/fakes/exports';
import { recordingMetrics } from '../../../support/fakes/metrics';
import { quietRuntime } from '../../../support/runtime';

const START = new Date('2026-03-01T10:00:00.000Z');
const job = EXPORT_JOB;
const s3 = mockClient(S3Client);

const entry = (i: number): LedgerEntry => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  accountId: job.accountId,
  type: i % 2 ? 'credit' : 'debit',
  amount: 100 + i,
  currency: 'EUR',
  origin: 'http',
  createdAt: new Date(START.getTime() - (10 - i) * 60_000).toISOString(),
  effectiveAt: new Date(START.getTime() - (10 - i) * 60_000).toISOString(),
});

/** The callback API: records each verified body and answers with the given outcomes. */
function fakeCallbacks(outcomes: Record<string, string> = {}) {
  const bodies: Array<{ sequence: number; data: Record<string, unknown> }> = [];
  const fetchFn = async (_url: unknown, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body));
    bodies.push(body);
    const outcome = outcomes[body.data.status] ?? 'applied';
    return new Response(JSON.stringify({ outcome }), { status: 200 });
  };
  return { bodies, fetch: fetchFn as typeof fetch };
}

function workerWith(runs: ExportRunPort, api: ReturnType<typeof fakeCallbacks>) {
  let tick = 0;
  return new ExportWorker({
    ...quietRuntime(),
    runs,
    objects: createS3ObjectSink({ client: new S3Client({ region: 'eu-west-1' }), bucket: 'b' }),
    reporter: createCallbackReporter({
      apiUrl: 'http://api',
      secrets: exportAppSecrets(),
      fetch: api.fetch,
      sleep: async () => {},
      clock: () => new Date(),
      newId: randomUUID,
    }),
    // Each reading of the clock is 5 s later: every page is due a progress report.
    clock: () => new Date(START.getTime() + 5_000 * tick++),
    progressIntervalMs: 1_000,
  });
}

const uploaded = () => {
  const [put] = s3.commandCalls(PutObjectCommand);
  return Buffer.from(put?.args[0].input.Body as Uint8Array);
};

beforeEach(() => {
  s3.reset();
  s3.on(PutObjectCommand).resolves({});
});

describe('export worker', () => {
  it('writes the snapshot to its key and reports SUCCEEDED with rows, bytes and sha256 of the object', async () => {
    const runs = fakeExportRunPort({ kind: 'claimed', lastSequence: 0 }, [
      [entry(1), entry(2)],
      [entry(3)],
    ]);
    const api = fakeCallbacks();
    const outcome = await workerWith(runs, api).run(job, {
      leaseMs: 60_000,
      giveUpMs: 60_000,
      finalAttempt: false,
    });

    const object = uploaded();
    const key = `exports/${job.taskId}/${job.executionId}.csv`;
    expect(s3.commandCalls(PutObjectCommand)[0]?.args[0].input.Key).toBe(key);
    const lines = object.toString().split('\r\n');
    expect(lines[0]).toBe(
      'id,createdAt,type,amount,currency,origin,reference,paymentId,transferId,counterpartyAccountId,holdId,ledgerTransactionId,reversalOf,direction,metadata,effectiveAt',
    );
    expect(lines.slice(1, -1).map((l) => l.split(',')[3])).toEqual(['101', '102', '103']);
    const result = {
      key,
      rows: 3,
      bytes: object.length,
      sha256: createHash('sha256').update(object).digest('hex'),
    };
    expect(outcome).toEqual({ kind: 'succeeded', result, outcome: 'applied' });
    const last = api.bodies.at(-1);
    expect(last?.data).toEqual({ status: 'SUCCEEDED', progress: 100, result });
    expect(runs.entryPages).toHaveBeenCalledExactlyOnceWith(job.accountId, START.toISOString());
  });

  it('reports RUNNING with rising progress below 100 in sequence, continuing the execution', async () => {
    const runs = fakeExportRunPort({ kind: 'claimed', lastSequence: 4 }, [
      [entry(1)],
      [entry(5)],
      [entry(9)],
    ]);
    const api = fakeCallbacks();
    await workerWith(runs, api).run(job, {
      leaseMs: 60_000,
      giveUpMs: 60_000,
      finalAttempt: false,
    });

    expect(api.bodies.map((b) => b.sequence)).toEqual(api.bodies.map((_, i) => 5 + i));
    const running = api.bodies.filter((b) => b.data.status === 'RUNNING');
    const progress = running.map((b) => Number(b.data.progress));
    expect(progress[0]).toBe(0);
    expect(progress.length).toBeGreaterThan(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(Math.max(...progress)).toBeLessThan(100);
    expect(api.bodies.at(-1)?.data.status).toBe('SUCCEEDED');
  });

  it('leases the execution for the given time from its start', async () => {
    const runs = fakeExportRunPort({ kind: 'claimed', lastSequence: 0 }, []);
    await workerWith(runs, fakeCallbacks()).run(job, {
      leaseMs: 30_000,
      giveUpMs: 60_000,
      finalAttempt: false,
    });
    expect(runs.claimRun).toHaveBeenCalledExactlyOnceWith(
      job,
      START,
      new Date(START.getTime() + 30_000),
    );
  });

  it.each([
    { kind: 'finished', status: 'SUCCEEDED' },
    { kind: 'past_deadline', deadline: START.toISOString() },
    { kind: 'leased', leaseUntil: START.toISOString() },
    { kind: 'unknown_execution' },
  ] as const)('does nothing for a refused claim ($kind): no object, no callback', async (claim) => {
    const api = fakeCallbacks();
    const outcome = await workerWith(fakeExportRunPort(claim, [[entry(1)]]), api).run(job, {
      leaseMs: 60_000,
      giveUpMs: 60_000,
      finalAttempt: true,
    });
    expect(outcome).toEqual({ kind: 'skipped', reason: claim.kind });
    expect(s3.calls()).toHaveLength(0);
    expect(api.bodies).toHaveLength(0);
  });

  it('stops and leaves no object when the API answers stale (the execution timed out)', async () => {
    const api = fakeCallbacks({ RUNNING: 'stale' });
    const runs = fakeExportRunPort({ kind: 'claimed', lastSequence: 1 }, [[entry(1)]]);
    const outcome = await workerWith(runs, api).run(job, {
      leaseMs: 1,
      giveUpMs: 60_000,
      finalAttempt: false,
    });
    expect(outcome).toMatchObject({ kind: 'timed_out', reported: 'RUNNING' });
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
    expect(api.bodies.map((b) => b.data.status)).toEqual(['RUNNING']);
  });

  it('deletes the object it wrote when SUCCEEDED is answered stale, and counts a timeout', async () => {
    s3.on(DeleteObjectCommand).resolves({});
    const api = fakeCallbacks({ SUCCEEDED: 'stale' });
    const runs = fakeExportRunPort({ kind: 'claimed', lastSequence: 1 }, [[entry(1), entry(2)]]);
    const metrics = recordingMetrics();
    const warnings: Array<{ message: string; fields: unknown }> = [];
    const consume = createExportJobsConsumer({
      worker: workerWith(runs, api),
      timeLeftMs: () => 60_000,
      log: { ...quietRuntime().log, warn: (message, fields) => warnings.push({ message, fields }) },
      metrics,
    });

    const response = await consume({ Records: [sqsRecord(job, 'm1')] });

    const key = `exports/${job.taskId}/${job.executionId}.csv`;
    expect(s3.commandCalls(PutObjectCommand)[0]?.args[0].input.Key).toBe(key);
    expect(s3.commandCalls(DeleteObjectCommand).map((c) => c.args[0].input)).toEqual([
      { Bucket: 'b', Key: key },
    ]);
    expect(api.bodies.at(-1)?.data.status).toBe('SUCCEEDED');
    expect(response.batchItemFailures).toEqual([]);
    expect(metrics.counts.get('ExportSucceeded')).toBeUndefined();
    expect(metrics.counts.get('ExportTimedOut')).toBe(1);
    expect(warnings).toEqual([
      expect.objectContaining({ fields: expect.objectContaining({ reported: 'SUCCEEDED', key }) }),
    ]);
  });

  it('reports a RUNNING answered stale as a timeout too (the upload was dropped)', async () => {
    const api = fakeCallbacks({ RUNNING: 'stale' });
    const runs = fakeExportRunPort({ kind: 'claimed', lastSequence: 1 }, [[entry(1)]]);
    const metrics = recordingMetrics();
    const consume = createExportJobsConsumer({
      worker: workerWith(runs, api),
      timeLeftMs: () => 60_000,
      log: quietRuntime().log,
      metrics,
    });
    await consume({ Records: [sqsRecord(job, 'm1')] });
    expect(metrics.counts.get('ExportTimedOut')).toBe(1);
    expect(s3.commandCalls(DeleteObjectCommand)).toHaveLength(0);
  });

  const s3Down = new S3ServiceException({
    name: 'ServiceUnavailable',
    $fault: 'server',
    $metadata: { httpStatusCode: 503 },
    message: 'Please reduce your request rate.',
  });

  it('throws when the object cannot be written, without SUCCEEDED (the job is redelivered)', async () => {
    s3.on(PutObjectCommand).rejects(s3Down);
    s3.on(AbortMultipartUploadCommand).resolves({});
    const api = fakeCallbacks();
    const runs = fakeExportRunPort({ kind: 'claimed', lastSequence: 0 }, [[entry(1)]]);
    await expect(
      workerWith(runs, api).run(job, { leaseMs: 1, giveUpMs: 60_000, finalAttempt: false }),
    ).rejects.toThrow(/reduce your request rate/);
    expect(api.bodies.map((b) => b.data.status)).toEqual(['RUNNING']);
  });

  it('reports FAILED on the final attempt before giving up', async () => {
    s3.on(PutObjectCommand).rejects(s3Down);
    const api = fakeCallbacks();
    const runs = fakeExportRunPort({ kind: 'claimed', lastSequence: 0 }, [[entry(1)]]);
    await expect(
      workerWith(runs, api).run(job, { leaseMs: 1, giveUpMs: 60_000, finalAttempt: true }),
    ).rejects.toThrow();
    expect(api.bodies.map((b) => [b.sequence, b.data.status])).toEqual([
      [1, 'RUNNING'],
      [2, 'FAILED'],
    ]);
  });

  /** A run whose entry pages never come: only the worker's own timer can end it. */
  function hangingRuns(): ExportRunPort {
    return {
      claimRun: async () => ({ kind: 'claimed', lastSequence: 3 }),
      // Never yields, as a stalled Query would not.
      async *entryPages() {
        await new Promise(() => {});
      },
    };
  }

  it('gives up on its own timer on the final attempt and reports FAILED before the invocation ends', async () => {
    const api = fakeCallbacks();
    const started = Date.now();
    await expect(
      workerWith(hangingRuns(), api).run(job, {
        leaseMs: 60_000,
        giveUpMs: 50,
        finalAttempt: true,
      }),
    ).rejects.toBeInstanceOf(RunOutOfTimeError);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(api.bodies.map((b) => [b.sequence, b.data.status])).toEqual([
      [4, 'RUNNING'],
      [5, 'FAILED'],
    ]);
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
  });

  it('gives up on its own timer without FAILED on an attempt that is redelivered', async () => {
    const api = fakeCallbacks();
    await expect(
      workerWith(hangingRuns(), api).run(job, {
        leaseMs: 60_000,
        giveUpMs: 50,
        finalAttempt: false,
      }),
    ).rejects.toThrow(/gave up after 50 ms/);
    expect(api.bodies.map((b) => b.data.status)).toEqual(['RUNNING']);
  });

  it('writes JSON Lines of the listing items for the json format', async () => {
    const runs = fakeExportRunPort({ kind: 'claimed', lastSequence: 0 }, [[entry(1), entry(2)]]);
    const api = fakeCallbacks();
    const outcome = await workerWith(runs, api).run(
      { ...job, format: 'json' },
      { leaseMs: 1, giveUpMs: 60_000, finalAttempt: false },
    );
    // Each line is the listing item: a credit or debit shows reversedAmount (docs/contract.md §16).
    const listed = (i: number) => JSON.stringify(readEntry(entry(i)));
    expect(uploaded().toString()).toBe(`${listed(1)}\n${listed(2)}\n`);
    expect(JSON.parse(listed(1))).toMatchObject({ reversedAmount: 0 });
    expect(outcome).toMatchObject({
      result: { key: `exports/${job.taskId}/${job.executionId}.jsonl`, rows: 2 },
    });
  });
});
