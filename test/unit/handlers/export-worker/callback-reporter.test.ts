import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { verifyCallbackSignature } from '../../../../functions/domain/callbacks/signature';
import type { ExecutionUpdate } from '../../../../functions/domain/exports/port';
import {
  CallbackRejectedError,
  createCallbackReporter,
} from '../../../../functions/handlers/export-worker/callback-reporter';
import { staticCallbackSecrets } from '../../../../functions/schemas/exports/callbacks';
import { APP, SECRET } from '../../../support/callbacks';
import { EXPORT_JOB, exportAppSecrets } from '../../../support/exports/export-job';

const NOW = new Date('2026-03-01T10:00:00.000Z');
const job = EXPORT_JOB;
const succeeded: ExecutionUpdate = {
  job,
  sequence: 3,
  status: 'SUCCEEDED',
  progress: 100,
  result: { key: `exports/${job.taskId}/${job.executionId}.csv`, rows: 2, bytes: 99, sha256: 'ab' },
};

interface Sent {
  url: string;
  body: string;
  signature: string | undefined;
}

function fakeApi(answers: Array<number | Error>) {
  const sent: Sent[] = [];
  const fetchFn = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    sent.push({
      url: String(url),
      body: String(init?.body),
      signature: headers.get('callback-signature') ?? undefined,
    });
    const answer = answers.shift() ?? 200;
    if (answer instanceof Error) throw answer;
    return new Response(JSON.stringify(answer === 200 ? { outcome: 'applied' } : { code: 'x' }), {
      status: answer,
    });
  });
  return { sent, fetch: fetchFn as unknown as typeof fetch };
}

const reporterWith = (api: ReturnType<typeof fakeApi>) =>
  createCallbackReporter({
    apiUrl: 'https://api.example',
    secrets: exportAppSecrets(),
    fetch: api.fetch,
    sleep: async () => {},
    clock: () => NOW,
    newId: () => '44444444-4444-4444-8444-444444444444',
  });

describe('callback reporter', () => {
  it("posts a CloudEvent to the job's callback path, signed with the application's secret", async () => {
    const api = fakeApi([200]);
    await expect(reporterWith(api).report(succeeded)).resolves.toBe('applied');
    const [request] = api.sent;
    expect(request?.url).toBe(`https://api.example/v1/callbacks/${APP}`);
    verifyCallbackSignature({
      header: request?.signature,
      rawBody: Buffer.from(request?.body ?? ''),
      secrets: [SECRET],
      nowSeconds: NOW.getTime() / 1000,
    });
    expect(JSON.parse(request?.body ?? '')).toMatchObject({
      specversion: '1.0',
      id: '44444444-4444-4444-8444-444444444444',
      sequence: 3,
      applicationid: APP,
      executionid: job.executionId,
      taskid: job.taskId,
      data: { status: 'SUCCEEDED', progress: 100, result: succeeded.result },
    });
  });

  it('retries 5xx, 429 and network errors with the same event id, so a lost answer is a duplicate', async () => {
    const api = fakeApi([503, 429, new TypeError('fetch failed'), 200]);
    await expect(reporterWith(api).report(succeeded)).resolves.toBe('applied');
    expect(api.sent).toHaveLength(4);
    expect(new Set(api.sent.map((s) => JSON.parse(s.body).id)).size).toBe(1);
  });

  it('stops at once on a 4xx: the same bytes cannot succeed later', async () => {
    const api = fakeApi([400]);
    await expect(reporterWith(api).report(succeeded)).rejects.toBeInstanceOf(CallbackRejectedError);
    expect(api.sent).toHaveLength(1);
  });

  it('gives up after its attempts and says so', async () => {
    const api = fakeApi([500, 500, 500, 500, 200]);
    await expect(reporterWith(api).report(succeeded)).rejects.toThrow(/after 4 attempts/);
    expect(api.sent).toHaveLength(4);
  });

  it('refuses to send unsigned when the application has no secret', async () => {
    const api = fakeApi([200]);
    const reporter = createCallbackReporter({
      apiUrl: 'https://api.example',
      secrets: staticCallbackSecrets(JSON.stringify({ other: [SECRET] })),
      fetch: api.fetch,
      clock: () => NOW,
      newId: randomUUID,
    });
    await expect(reporter.report(succeeded)).rejects.toThrow(/no callback secret/);
    expect(api.sent).toHaveLength(0);
  });
});
