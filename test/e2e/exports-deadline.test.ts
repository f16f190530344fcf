import { createHmac, randomUUID } from 'node:crypto';
import {
  DeleteMessageCommand,
  GetQueueUrlCommand,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CALLBACK_SECRET } from '../../functions/contract/local-stack';
import { epochSeconds } from '../../functions/domain/shared/time';
import { apiClient } from './support/raw-api';
import { type LocalStack, startLocalStack } from './support/stack';

/**
 * Execution deadlines on `npm start` with the worker off (docs/contract.md §12): the job waits on
 * `export-jobs`, the sweeper times the execution out once, the result route says 409, a late
 * callback is stale, and the task can be rerun.
 */

const alice = { principal: 'alice' };
/**
 * Deadline of every execution of this stack: the file's requests before it fit in it under
 * load (the CLI's callbacks, which start tsx, run on a stack of their own: exports-cli.test.ts).
 */
const DEADLINE_SECONDS = 6;
/** The stack's sweeps of due deadlines; "exactly once" below waits out three of them. */
const SWEEP_INTERVAL_MS = 250;
let stack: LocalStack;
let api: ReturnType<typeof apiClient>;
let sqs: SQSClient;

beforeAll(async () => {
  stack = await startLocalStack({
    EXPORT_WORKER: 'off',
    EXPORT_EXECUTION_TIMEOUT_SECONDS: String(DEADLINE_SECONDS),
    SWEEP_INTERVAL_SECONDS: String(SWEEP_INTERVAL_MS / 1000),
  });
  api = apiClient(stack.base);
  sqs = new SQSClient({
    endpoint: stack.sqsEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'e2e', secretAccessKey: 'e2e' },
  });
});

afterAll(async () => {
  sqs?.destroy();
  if (stack) await stack.interrupt();
  stack?.kill();
});

function signed(body: string) {
  const t = epochSeconds();
  const v1 = createHmac('sha256', DEMO_CALLBACK_SECRET).update(`${t}.${body}`).digest('hex');
  return { 'Content-Type': 'application/json', 'Callback-Signature': `t=${t},v1=${v1}` };
}

describe('an export whose job is never worked', () => {
  let accountId = '';
  let taskId = '';
  let executionId = '';

  it('queues the job in the contract §8 shape; the worker is off and says so', async () => {
    expect(stack.output()).toContain('export worker off (EXPORT_WORKER=off)');
    const account = await api('POST', '/v1/accounts', {
      ...alice,
      key: 'deadline-account',
      body: { currency: 'EUR' },
    });
    accountId = String(account.json.id);
    await api('POST', `/v1/accounts/${accountId}/transactions`, {
      ...alice,
      key: 'deadline-credit',
      body: { type: 'credit', amount: 1_000, currency: 'EUR' },
    });
    const task = await api('POST', `/v1/accounts/${accountId}/exports`, {
      ...alice,
      key: 'deadline-export',
      body: { format: 'csv' },
    });
    expect(task.status).toBe(202);
    taskId = String(task.json.id);
    executionId = String(task.json.currentExecutionId);

    const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: 'export-jobs' }));
    let body = '';
    await expect
      .poll(
        async () => {
          const { Messages = [] } = await sqs.send(
            new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 1, VisibilityTimeout: 60 }),
          );
          const [message] = Messages;
          if (!message) return '';
          await sqs.send(
            new DeleteMessageCommand({ QueueUrl, ReceiptHandle: message.ReceiptHandle }),
          );
          body = message.Body ?? '';
          return body;
        },
        { timeout: 10_000 },
      )
      .not.toBe('');
    expect(JSON.parse(body)).toEqual({
      taskId,
      executionId,
      accountId,
      format: 'csv',
      callbackPath: '/v1/callbacks/export-worker',
    });
  });

  it('409 task_not_succeeded before anything ran', async () => {
    const result = await api('GET', `/v1/tasks/${taskId}/result`, alice);
    expect(result.status).toBe(409);
    expect(result.json.code).toBe('task_not_succeeded');
  });

  it('times the execution out after its deadline, exactly once', { timeout: 90_000 }, async () => {
    await expect
      .poll(async () => (await api('GET', `/v1/tasks/${taskId}`, alice)).json.status, {
        timeout: (DEADLINE_SECONDS + 10) * 1000,
        interval: 250,
      })
      .toBe('TIMED_OUT');
    // Exactly once: later sweeps change nothing (no second write, same updatedAt), and the
    // sweeps together settled this stack's one execution once.
    const timedOut = (await api('GET', `/v1/tasks/${taskId}`, alice)).text;
    await new Promise((resolve) => setTimeout(resolve, 3 * SWEEP_INTERVAL_MS));
    expect((await api('GET', `/v1/tasks/${taskId}`, alice)).text).toBe(timedOut);
    const settles = [...stack.output().matchAll(/"kind":"execution","settled":(\d+)/g)].map((m) =>
      Number(m[1]),
    );
    const total = settles.reduce((a, b) => a + b, 0);
    expect(total).toBe(1);
  });

  it('answers a late callback stale and changes nothing', async () => {
    const before = (await api('GET', `/v1/tasks/${taskId}`, alice)).text;
    const body = JSON.stringify({
      specversion: '1.0',
      id: randomUUID(),
      source: 'urn:e2e:late-worker',
      type: 'export.execution.progress',
      sequence: 1,
      executionid: executionId,
      data: { status: 'RUNNING', progress: 10 },
    });
    const res = await fetch(`${stack.base}/v1/callbacks/export-worker`, {
      method: 'POST',
      headers: signed(body),
      body,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ outcome: 'stale' });
    expect((await api('GET', `/v1/tasks/${taskId}`, alice)).text).toBe(before);
  });

  it('the timed-out task can be rerun', async () => {
    const rerun = await api('POST', `/v1/tasks/${taskId}/reruns`, {
      ...alice,
      key: 'deadline-rerun',
      body: {},
    });
    expect(rerun.status).toBe(202);
    expect(rerun.json.status).toBe('CREATED');
    expect(rerun.json.currentExecutionId).not.toBe(executionId);
  });
});
