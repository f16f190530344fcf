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
 * reports it to SUCCEEDED through signed callbacks.
 */

const EXPORT_FEE = 250;
/** An ed25519 pair: the stack knows the public key, only the CLI holds the signing key. */
const KEYS = generateCallbackKeys();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

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

/** The next job on export-jobs, hidden from others until released or deleted. */
async function nextJob(timeoutMs = 10_000): Promise<Message> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: jobsUrl,
        MaxNumberOfMessages: 1,
        WaitTimeSeconds: 1,
        VisibilityTimeout: 30,
        MessageAttributeNames: ['All'],
      }),
    );
    const [message] = Messages;
    if (message) return message;
  }
  throw new Error(`no job on export-jobs within ${timeoutMs} ms:\n${stack.output().slice(-3000)}`);
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

async function getTask(taskId: string): Promise<Schemas['Task'] | undefined> {
  return (await alice.GET('/v1/tasks/{taskId}', { params: { path: { taskId } } })).data;
}

describe('exports through the outbox, export-jobs and signed callbacks', () => {
  let accountId = '';
  let taskId = '';
  let firstExecutionId = '';
  let secondExecutionId = '';
  let createdText = '';
  /** The export request, answered as text: the exact bytes, to compare the replay with. */
  const postExport = async () => {
    const { data, response } = await alice.POST('/v1/accounts/{accountId}/exports', {
      params: { path: { accountId }, header: key('e2e-export-1') },
      body: { format: 'csv' },
      parseAs: 'text',
    });
    return { text: typeof data === 'string' ? data : '', response };
  };

  it('answers 202 with the task and debits the export fee', async () => {
    const account = await alice.POST('/v1/accounts', {
      params: { header: key('e2e-exports-account') },
      body: { currency: 'EUR' },
    });
    expect(account.response.status).toBe(201);
    accountId = account.data?.id ?? '';
    const credit = await alice.POST('/v1/accounts/{accountId}/transactions', {
      params: { path: { accountId }, header: key('e2e-exports-credit') },
      body: { type: 'credit', amount: 1_000, currency: 'EUR' },
    });
    expect(credit.response.status).toBe(201);

    const created = await postExport();

    expect(created.response.status).toBe(202);
    createdText = created.text;
    const task = JSON.parse(createdText) as Schemas['Task'];
    expect(task).toMatchObject({
      id: expect.stringMatching(UUID),
      accountId,
      format: 'csv',
      progress: 0,
      currentExecutionId: expect.stringMatching(UUID),
      executions: [expect.objectContaining({ lastSequence: 0, gaps: [] })],
    });
    taskId = task.id;
    firstExecutionId = task.currentExecutionId;
    expect(await balance(accountId)).toBe(1_000 - EXPORT_FEE);
  });

  it('delivers the job to export-jobs in the contract §8 shape', async () => {
    const message = await nextJob();

    expect(JSON.parse(message.Body ?? '')).toEqual({
      taskId,
      executionId: firstExecutionId,
      accountId,
      format: 'csv',
      callbackPath: '/v1/callbacks/export-worker',
    });
    // Hand it back for the worker.
    await sqs.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: jobsUrl,
        ReceiptHandle: message.ReceiptHandle,
        VisibilityTimeout: 0,
      }),
    );
    // The dispatcher logs after SendMessage and marking the outbox item, so maybe a bit later.
    await expect
      .poll(() => stack.output(), { timeout: 5_000 })
      .toMatch(/\[outbox\] INFO export job dispatched/);
    expect(stack.output()).toMatch(/\[stream\] shard \S+: \d+ record\(s\) .* -> ok/);
  });

  it('the demo worker reports the job to SUCCEEDED with signed callbacks', async () => {
    const worker = await cli('worker', '--once', '--idle', '1', '--delay', '0.05');

    expect(worker.code, worker.output).toBe(0);
    expect(worker.output).toMatch(/seq 1 RUNNING 0% -> applied/);
    expect(worker.output).toMatch(/seq 3 SUCCEEDED 100% -> applied/);
    expect(worker.output).toMatch(/1 job\(s\) done/);

    let task: Schemas['Task'] | undefined;
    await expect
      .poll(
        async () => {
          task = await getTask(taskId);
          return [task?.status, task?.progress];
        },
        { timeout: 5_000, interval: 100 },
      )
      .toEqual(['SUCCEEDED', 100]);
    expect(task?.executions).toEqual([
      expect.objectContaining({
        id: firstExecutionId,
        status: 'SUCCEEDED',
        progress: 100,
        lastSequence: 3,
        gaps: [],
      }),
    ]);
  });

  it('a rerun (202) queues a second job with a new executionId', async () => {
    const rerun = await alice.POST('/v1/tasks/{taskId}/reruns', {
      params: { path: { taskId }, header: key('e2e-rerun-1') },
      body: {},
    });

    expect(rerun.response.status).toBe(202);
    secondExecutionId = rerun.data?.currentExecutionId ?? '';
    expect(secondExecutionId).toMatch(UUID);
    expect(secondExecutionId).not.toBe(firstExecutionId);

    const message = await nextJob();
    expect(JSON.parse(message.Body ?? '')).toEqual({
      taskId,
      executionId: secondExecutionId,
      accountId,
      format: 'csv',
      callbackPath: '/v1/callbacks/export-worker',
    });
    await sqs.send(
      new DeleteMessageCommand({ QueueUrl: jobsUrl, ReceiptHandle: message.ReceiptHandle }),
    );
  });

  it('`npm run cli -- callback` reports with Standard Webhooks: v1 with the secret, v1a with a signing key', async () => {
    const report = (...args: string[]) =>
      cli('callback', '--execution', secondExecutionId, '--task', taskId, ...args);

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
    const task = await getTask(taskId);
    expect(task).toMatchObject({
      status: 'RUNNING',
      progress: 60,
      currentExecutionId: secondExecutionId,
    });
    expect(task?.executions.find((e) => e.id === secondExecutionId)).toMatchObject({
      lastSequence: 2,
      gaps: [],
    });
  });

  it('a retried export replays the first answer and queues no second job', async () => {
    const replay = await postExport();

    expect(replay.response.status).toBe(202);
    expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(createdText);
    expect(await balance(accountId)).toBe(1_000 - EXPORT_FEE);
    // The stream poller polls every 250 ms: two seconds of silence means nothing was written.
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: jobsUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 2 }),
    );
    expect(Messages).toEqual([]);
  });

  it('`npm run cli -- demo` runs the whole loop', async () => {
    const demo = await cli('demo', '--timeout', '15');

    expect(demo.code, demo.output).toBe(0);
    expect(demo.output).toMatch(/export fee 250/);
    expect(demo.output).toMatch(/"status": "SUCCEEDED"/);
    expect(demo.output).toMatch(/done: task \S+ is SUCCEEDED with progress 100/);
  });

  it('stops on SIGINT, stream poller included', async () => {
    expect(await stack.interrupt()).toBe(0);
    expect(stack.output()).toMatch(/stopped stream poller/);
    await expect.poll(() => groupAlive(stack.pid), { timeout: 10_000 }).toBe(false);
  });
});
