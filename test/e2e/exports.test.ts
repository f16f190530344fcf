import { randomUUID } from 'node:crypto';
import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  GetQueueUrlCommand,
  type Message,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCallbackKeys } from '../../cli/commands/keygen';
import type { LedgerClient, Schemas } from '../../client';
import { runScript } from './support/run-script';
import { clientFor, groupAlive, key, type LocalStack, startLocalStack } from './support/stack';

/**
 * The export loop end to end (contract §5, §7, §8, §9): a paid export writes the task and an
 * outbox item in one transaction, the stack's stream poller hands the item to the outbox
 * dispatcher, the job lands on `export-jobs`, and the demo worker (`npm run cli -- worker`)
 * reports it to SUCCEEDED through signed callbacks. The API is called through the typed client.
 */

const EXPORT_FEE = 250;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** An ed25519 pair: the stack knows the public key, only the CLI holds the signing key. */
const KEYS = generateCallbackKeys();

let stack: LocalStack;
/** The account owner, through the typed client. */
let alice: LedgerClient;
let sqs: SQSClient;
let jobsUrl = '';

beforeAll(async () => {
  stack = await startLocalStack({
    EXPORT_FEE: String(EXPORT_FEE),
    CALLBACK_SECRETS: '',
    CALLBACK_PUBLIC_KEYS: JSON.stringify({ 'export-worker': [KEYS.publicKey] }),
  });
  alice = clientFor(stack.base, 'alice');
  sqs = new SQSClient({
    endpoint: stack.sqsEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'e2e', secretAccessKey: 'e2e' },
  });
  jobsUrl = (await sqs.send(new GetQueueUrlCommand({ QueueName: 'export-jobs' }))).QueueUrl ?? '';
});

afterAll(() => {
  sqs?.destroy();
  // Safety net only: the last test stops the stack with SIGINT.
  stack?.kill();
});

/**
 * The job of one execution on export-jobs, hidden from others until released or deleted. Jobs
 * of other executions are handed back at once, so no test depends on what others left queued.
 */
async function jobFor(executionId: string, timeoutMs = 10_000): Promise<Message> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: jobsUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 1,
        VisibilityTimeout: 30,
        MessageAttributeNames: ['All'],
      }),
    );
    let mine: Message | undefined;
    for (const message of Messages) {
      if (JSON.parse(message.Body ?? '{}').executionId === executionId) mine = message;
      else await release(message);
    }
    if (mine) return mine;
  }
  throw new Error(
    `no job for ${executionId} on export-jobs within ${timeoutMs} ms:\n${stack.output().slice(-3000)}`,
  );
}

/** Makes a received message visible again at once. */
async function release(message: Message): Promise<void> {
  await sqs.send(
    new ChangeMessageVisibilityCommand({
      QueueUrl: jobsUrl,
      ReceiptHandle: message.ReceiptHandle,
      VisibilityTimeout: 0,
    }),
  );
}

async function remove(message: Message): Promise<void> {
  await sqs.send(
    new DeleteMessageCommand({ QueueUrl: jobsUrl, ReceiptHandle: message.ReceiptHandle }),
  );
}

/** Runs `npm run cli -- <args>` (as tsx cli/main.ts) against the stack; resolves code and output. */
function cli(...args: string[]): Promise<{ code: number | null; output: string }> {
  return runScript('cli/main.ts', args, {
    PORT: String(stack.httpPort),
    SQS_PORT: String(stack.sqsPort),
    SQS_ENDPOINT: '',
    CALLBACK_SECRETS: '',
  });
}

async function balance(accountId: string): Promise<number | undefined> {
  return (await alice.GET('/v1/accounts/{accountId}', { params: { path: { accountId } } })).data
    ?.balance;
}

/** A new account of alice's holding 1,000 EUR. */
async function fundedAccount(): Promise<string> {
  const account = await alice.POST('/v1/accounts', {
    params: { header: key(randomUUID()) },
    body: { currency: 'EUR' },
  });
  expect(account.response.status).toBe(201);
  const accountId = account.data?.id ?? '';
  const credit = await alice.POST('/v1/accounts/{accountId}/transactions', {
    params: { path: { accountId }, header: key(randomUUID()) },
    body: { type: 'credit', amount: 1_000, currency: 'EUR' },
  });
  expect(credit.response.status).toBe(201);
  return accountId;
}

/** POSTs an export of `accountId` under `idempotencyKey`; the answer as text, the exact bytes. */
async function postExport(accountId: string, idempotencyKey: string) {
  const { data, response } = await alice.POST('/v1/accounts/{accountId}/exports', {
    params: { path: { accountId }, header: key(idempotencyKey) },
    body: { format: 'csv' },
    parseAs: 'text',
  });
  return { text: String(data), response };
}

/** A paid CSV export on a new funded account: the 202 answer as text, its key, its ids. */
async function newExport() {
  const accountId = await fundedAccount();
  const exportKey = randomUUID();
  const created = await postExport(accountId, exportKey);
  expect(created.response.status).toBe(202);
  const task = JSON.parse(created.text) as Schemas['Task'];
  return {
    accountId,
    exportKey,
    created,
    task,
    taskId: task.id,
    executionId: task.currentExecutionId,
  };
}

async function getTask(taskId: string): Promise<Schemas['Task'] | undefined> {
  return (await alice.GET('/v1/tasks/{taskId}', { params: { path: { taskId } } })).data;
}

/** Polls the task until it reports `status` and `progress`; resolves the last view. */
async function taskReaches(taskId: string, status: string, progress: number) {
  let task: Schemas['Task'] | undefined;
  await expect
    .poll(
      async () => {
        task = await getTask(taskId);
        return [task?.status, task?.progress];
      },
      { timeout: 5_000, interval: 100 },
    )
    .toEqual([status, progress]);
  return task;
}

const worker = () => cli('worker', '--once', '--idle', '1', '--delay', '0.05');

describe('exports through the outbox, export-jobs and signed callbacks', () => {
  it('answers 202 with the task and debits the export fee', async () => {
    const { accountId, task } = await newExport();

    expect(task).toMatchObject({
      id: expect.stringMatching(UUID),
      accountId,
      format: 'csv',
      progress: 0,
      currentExecutionId: expect.stringMatching(UUID),
      executions: [expect.objectContaining({ lastSequence: 0, gaps: [] })],
    });
    expect(await balance(accountId)).toBe(1_000 - EXPORT_FEE);
    await remove(await jobFor(task.currentExecutionId));
  });

  it('delivers the job to export-jobs in the contract §8 shape', async () => {
    const { accountId, taskId, executionId } = await newExport();

    const message = await jobFor(executionId);

    expect(JSON.parse(message.Body ?? '')).toEqual({
      taskId,
      executionId,
      accountId,
      format: 'csv',
      callbackPath: '/v1/callbacks/export-worker',
    });
    await remove(message);
    // The dispatcher logs after SendMessage and marking the outbox item, so maybe a bit later.
    await expect
      .poll(() => stack.output(), { timeout: 5_000 })
      .toMatch(new RegExp(`\\[outbox\\] INFO export job dispatched .*${executionId}`));
    expect(stack.output()).toMatch(/\[stream\] shard \S+: \d+ record\(s\) .* -> ok/);
  });

  it('the demo worker reports the job to SUCCEEDED with signed callbacks', async () => {
    const { taskId, executionId } = await newExport();
    // The job is on the queue before the worker starts, so `--once` cannot go idle before it.
    await release(await jobFor(executionId));

    const run = await worker();

    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(new RegExp(`execution ${executionId}: seq 1 RUNNING 0% -> applied`));
    expect(run.output).toMatch(
      new RegExp(`execution ${executionId}: seq 3 SUCCEEDED 100% -> applied`),
    );
    const task = await taskReaches(taskId, 'SUCCEEDED', 100);
    expect(task?.executions).toEqual([
      expect.objectContaining({
        id: executionId,
        status: 'SUCCEEDED',
        progress: 100,
        lastSequence: 3,
        gaps: [],
      }),
    ]);
  });

  it('a rerun (202) queues a second job with a new executionId', async () => {
    const { accountId, taskId, executionId } = await newExport();
    await release(await jobFor(executionId));
    expect((await worker()).code).toBe(0);
    await taskReaches(taskId, 'SUCCEEDED', 100);

    const rerun = await alice.POST('/v1/tasks/{taskId}/reruns', {
      params: { path: { taskId }, header: key(randomUUID()) },
      body: {},
    });

    expect(rerun.response.status).toBe(202);
    const secondExecutionId = rerun.data?.currentExecutionId ?? '';
    expect(secondExecutionId).toMatch(UUID);
    expect(secondExecutionId).not.toBe(executionId);
    const message = await jobFor(secondExecutionId);
    expect(JSON.parse(message.Body ?? '')).toEqual({
      taskId,
      executionId: secondExecutionId,
      accountId,
      format: 'csv',
      callbackPath: '/v1/callbacks/export-worker',
    });
    await remove(message);
  });

  it('a retried export replays the first answer and queues no second job', async () => {
    const { accountId, exportKey, created, taskId, executionId } = await newExport();
    await remove(await jobFor(executionId));

    const replay = await postExport(accountId, exportKey);

    expect(replay.response.status).toBe(202);
    expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(created.text);
    expect(await balance(accountId)).toBe(1_000 - EXPORT_FEE);
    // The stream poller polls every 250 ms: two seconds of silence means nothing was written.
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: jobsUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 2 }),
    );
    for (const message of Messages) await release(message);
    expect(Messages.filter((m) => JSON.parse(m.Body ?? '{}').taskId === taskId)).toEqual([]);
  });

  it('`npm run cli -- callback` reports with Standard Webhooks: v1 with the secret, v1a with a signing key', async () => {
    const { taskId, executionId } = await newExport();
    await remove(await jobFor(executionId));
    const report = (...args: string[]) =>
      cli('callback', '--execution', executionId, '--task', taskId, ...args);

    const v1 = await report(
      '--sequence',
      '1',
      '--status',
      'RUNNING',
      '--scheme',
      'standard-webhooks',
    );
    const v1a = await report(
      '--sequence',
      '2',
      '--progress',
      '60',
      '--signing-key',
      KEYS.signingKey,
    );

    expect(v1.code, v1.output).toBe(0);
    expect(v1.output).toMatch(/\(Standard Webhooks v1\)[\s\S]*HTTP 200[\s\S]*"outcome": "applied"/);
    expect(v1a.code, v1a.output).toBe(0);
    expect(v1a.output).toMatch(
      /\(Standard Webhooks v1a\)[\s\S]*HTTP 200[\s\S]*"outcome": "applied"/,
    );
    const task = await taskReaches(taskId, 'RUNNING', 60);
    expect(task?.executions).toEqual([
      expect.objectContaining({ id: executionId, lastSequence: 2, gaps: [] }),
    ]);
  });

  it('`npm run cli -- demo` runs the whole loop', async () => {
    const demo = await cli('demo', '--timeout', '15');

    expect(demo.code, demo.output).toBe(0);
    expect(demo.output).toMatch(/export fee 250/);
    expect(demo.output).toMatch(/"status": "SUCCEEDED"/);
    expect(demo.output).toMatch(/done: task \S+ is SUCCEEDED with progress 100/);
  });

  // Last, as in every e2e file: it stops the stack the other tests share.
  it('stops on SIGINT, stream poller included', async () => {
    expect(await stack.interrupt()).toBe(0);
    expect(stack.output()).toMatch(/stopped stream poller/);
    await expect.poll(() => groupAlive(stack.pid), { timeout: 10_000 }).toBe(false);
  });
});
