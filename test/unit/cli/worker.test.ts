import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  type Message,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { Webhook } from 'standardwebhooks';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { runWorker, type WorkerOptions } from '../../../cli/worker';
import { parseExportJob } from '../../../functions/contract/export-job';
import { verifyCallbackSignature } from '../../../functions/core/signature';
import { exportJob } from '../../support/export-job';

const QUEUE_URL = 'http://sqs.us-east-1.localhost:4566/000000000000/export-jobs';
const API = 'http://127.0.0.1:3000';
const SECRET = 'worker-test-secret-0123456789';
const sqs = mockClient(SQSClient);

interface Sent {
  url: string;
  signature: string;
  headers: Headers;
  body: string;
  json: Record<string, unknown>;
}

/** A fetch that records each callback and answers with the next status (200 applied by default). */
function fakeFetch(statuses: number[] = []) {
  const sent: Sent[] = [];
  const timeline: string[] = [];
  // The worker calls through the typed client, which hands fetch a Request.
  const impl = (async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    const body = await request.text();
    sent.push({
      url: request.url,
      signature: request.headers.get('Callback-Signature') ?? '',
      headers: request.headers,
      body,
      json: JSON.parse(body) as Record<string, unknown>,
    });
    timeline.push(`callback ${sent.length}`);
    const status = statuses.shift() ?? 200;
    const answer =
      status === 200
        ? { outcome: 'applied' }
        : { code: status === 401 ? 'invalid_signature' : 'unavailable', status };
    const type = status === 200 ? 'application/json' : 'application/problem+json';
    return new Response(JSON.stringify(answer), { status, headers: { 'content-type': type } });
  }) as typeof fetch;
  return { impl, sent, timeline };
}

const job = exportJob;

function message(body: unknown, n = 1): Message {
  return {
    MessageId: `m-${n}`,
    ReceiptHandle: `rh-${n}`,
    Body: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

function queue(...messages: Message[]) {
  sqs.on(ReceiveMessageCommand).resolvesOnce({ Messages: messages }).resolves({});
}

function options(fetchImpl: typeof fetch, extra: Partial<WorkerOptions> = {}): WorkerOptions {
  return {
    sqs: new SQSClient({ region: 'us-east-1' }),
    queueUrl: QUEUE_URL,
    apiUrl: API,
    fetch: fetchImpl,
    signerFor: (app) => {
      if (app !== 'export-worker') throw new Error(`no secret for ${app}`);
      return { scheme: 'callback-signature', secrets: [SECRET], signingKeys: [] };
    },
    once: true,
    idleMs: 0,
    stepDelayMs: 0,
    waitTimeSeconds: 0,
    ...extra,
  };
}

const deleted = () =>
  sqs.commandCalls(DeleteMessageCommand).map((c) => c.args[0].input.ReceiptHandle);

beforeEach(() => {
  sqs.reset();
});

describe('the demo worker', () => {
  it('reports RUNNING 0, RUNNING 50, SUCCEEDED 100 as signed callbacks to the callbackPath, then deletes the job', async () => {
    const j = job();
    queue(message(j));
    const fetch = fakeFetch();
    sqs.on(DeleteMessageCommand).callsFake(() => {
      fetch.timeline.push('delete');
      return {};
    });
    const lines: string[] = [];

    const summary = await runWorker(options(fetch.impl, { log: (l) => lines.push(l) }));

    expect(summary).toEqual({ done: 1, duplicates: 0, skipped: 0, failed: 0 });
    expect(fetch.sent.map((s) => s.url)).toEqual(
      Array(3).fill(`${API}/v1/callbacks/export-worker`),
    );
    expect(fetch.sent.map((s) => [s.json.sequence, s.json.data])).toEqual([
      [1, { status: 'RUNNING', progress: 0 }],
      [2, { status: 'RUNNING', progress: 50 }],
      [3, { status: 'SUCCEEDED', progress: 100 }],
    ]);
    for (const { json } of fetch.sent) {
      expect(json).toMatchObject({
        specversion: '1.0',
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        source: expect.any(String),
        type: expect.any(String),
        executionid: j.executionId,
        taskid: j.taskId,
        applicationid: 'export-worker',
      });
    }
    expect(new Set(fetch.sent.map((s) => s.json.id)).size).toBe(3);
    // Each signature covers the exact bytes sent, with the application's secret.
    for (const { signature, body } of fetch.sent) {
      expect(() =>
        verifyCallbackSignature({
          header: signature,
          rawBody: Buffer.from(body),
          secrets: [SECRET],
          nowSeconds: Math.floor(Date.now() / 1000),
        }),
      ).not.toThrow();
    }
    expect(fetch.timeline).toEqual(['callback 1', 'callback 2', 'callback 3', 'delete']);
    expect(deleted()).toEqual(['rh-1']);
    expect(lines).toContainEqual(expect.stringMatching(/seq 3 SUCCEEDED 100% -> applied/));
  });

  it('signs with Standard Webhooks when told to: webhook-id is the event id, the reference package verifies it', async () => {
    queue(message(job()));
    const fetch = fakeFetch();
    const secret = `whsec_${Buffer.from('worker-test-secret-0123456789').toString('base64')}`;

    const summary = await runWorker(
      options(fetch.impl, {
        signerFor: () => ({ scheme: 'standard-webhooks', secrets: [secret], signingKeys: [] }),
      }),
    );

    expect(summary).toMatchObject({ done: 1 });
    expect(fetch.sent).toHaveLength(3);
    for (const { headers, body, json } of fetch.sent) {
      expect(headers.get('callback-signature')).toBeNull();
      expect(headers.get('webhook-id')).toBe(json.id);
      expect(() =>
        new Webhook(secret).verify(body, Object.fromEntries(headers.entries())),
      ).not.toThrow();
    }
  });

  it('deletes a second delivery of a finished executionId without reporting again', async () => {
    const j = job();
    queue(message(j, 1), message(j, 2));
    const fetch = fakeFetch();

    const summary = await runWorker(options(fetch.impl));

    expect(summary).toMatchObject({ done: 1, duplicates: 1 });
    expect(fetch.sent).toHaveLength(3);
    expect(deleted()).toEqual(['rh-1', 'rh-2']);
  });

  it('leaves a job on the queue when a callback is rejected (no retry on 4xx)', async () => {
    queue(message(job()));
    const fetch = fakeFetch([401]);

    const summary = await runWorker(options(fetch.impl));

    expect(summary).toMatchObject({ done: 0, failed: 1 });
    expect(fetch.sent).toHaveLength(1);
    expect(deleted()).toEqual([]);
  });

  it('retries a callback that met a 5xx, then goes on', async () => {
    queue(message(job()));
    const fetch = fakeFetch([503]);

    const summary = await runWorker(options(fetch.impl));

    expect(summary).toMatchObject({ done: 1 });
    expect(fetch.sent.map((s) => s.json.sequence)).toEqual([1, 1, 2, 3]);
    expect(fetch.sent[0]?.json.id).toBe(fetch.sent[1]?.json.id); // the same event, resent
    expect(deleted()).toEqual(['rh-1']);
  });

  it('leaves malformed jobs, and jobs for another application when --app is set', async () => {
    queue(message('not json', 1), message(job({ callbackPath: '/v1/callbacks/other-app' }), 2));
    const fetch = fakeFetch();

    const summary = await runWorker(options(fetch.impl, { app: 'export-worker' }));

    expect(summary).toMatchObject({ done: 0, failed: 1, skipped: 1 });
    expect(fetch.sent).toHaveLength(0);
    expect(deleted()).toEqual([]);
  });

  it('hands an unfinished job back to the queue when stopped', async () => {
    queue(message(job()));
    const controller = new AbortController();
    const fetch = fakeFetch();
    const stopAfterFirst = (async (input: string | URL | Request, init?: RequestInit) => {
      const res = await fetch.impl(input, init);
      controller.abort();
      return res;
    }) as typeof globalThis.fetch;

    const summary = await runWorker(
      options(stopAfterFirst, { once: false, signal: controller.signal, stepDelayMs: 10 }),
    );

    expect(summary).toMatchObject({ done: 0, failed: 1 });
    expect(fetch.sent).toHaveLength(1);
    expect(deleted()).toEqual([]);
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand)[0]?.args[0].input).toMatchObject({
      ReceiptHandle: 'rh-1',
      VisibilityTimeout: 0,
    });
  });

  it('with --once, keeps receiving until nothing came for the idle time, then stops', async () => {
    // Each empty receive takes 20 ms of a fake clock: the third one reaches 60 ms >= 50 ms idle.
    vi.useFakeTimers({ toFake: ['Date'] });
    sqs.on(ReceiveMessageCommand).callsFake(() => {
      vi.setSystemTime(Date.now() + 20);
      return {};
    });
    try {
      const summary = await runWorker(options(fakeFetch().impl, { idleMs: 50 }));

      expect(summary).toEqual({ done: 0, duplicates: 0, skipped: 0, failed: 0 });
      expect(sqs.commandCalls(ReceiveMessageCommand)).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('parseExportJob', () => {
  it('accepts the contract §8 message and explains what is wrong otherwise', () => {
    const j = job();
    expect(parseExportJob(JSON.stringify(j))).toEqual({ ok: true, job: j });
    expect(parseExportJob('{')).toEqual({ ok: false, reason: 'body is not JSON' });
    expect(parseExportJob('[]')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^\(job\)/),
    });
    expect(parseExportJob(JSON.stringify({ ...j, executionId: undefined }))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^executionId: /),
    });
    expect(parseExportJob(JSON.stringify({ ...j, callbackPath: '/elsewhere' }))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^callbackPath: .*\/v1\/callbacks\//),
    });
    expect(
      parseExportJob(JSON.stringify({ ...j, callbackPath: '/v1/callbacks/has space' })),
    ).toMatchObject({ ok: false, reason: expect.stringMatching(/<applicationId>/) });
  });
});
