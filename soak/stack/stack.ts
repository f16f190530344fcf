import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { startDynamoLocalOnFreePort } from '../../kit/dynamo-local';
import { freePort } from '../../kit/free-port';
import type { RunningDynamo } from '../../local/services/dynamodb/dynamodb-local';
import { localSqsClient, type RunningSqs, startSqsEmulator } from '../../local/services/sqs/fauxqs';
import { ensureQueues, type LocalQueues } from '../../local/services/sqs/queues';
import { ensureTopics, type LocalTopics, localSnsClient } from '../../local/services/sqs/topics';
import { startTcpGate, type TcpGate } from './tcp-gate';

/**
 * What the soak runs against: DynamoDB (its own DynamoDB Local, or `dynamoEndpoint`) behind a
 * gate that can cut it off, the SQS/SNS emulator in this process, and `npm start`'s composition
 * (`node --import tsx local/start.ts`) as a child in its own process group on those, with the
 * contention layer on — so a SIGKILL takes the functions down and leaves the storage and the
 * queues as they were, as on AWS.
 */
export interface SoakStack {
  /** The API's base URL (changes on restart). */
  base(): string;
  readonly sqs: SQSClient;
  readonly queues: LocalQueues;
  readonly topics: LocalTopics;
  readonly gate: TcpGate;
  /** DynamoDB itself (not the gate) and the stack's table: what `verify` reads at the end. */
  readonly dynamoEndpoint: string;
  readonly tableName: string;
  /** SIGKILLs the stack's process group and starts it again; resolves once it is ready. */
  killAndRestart(): Promise<void>;
  /** The stack's output (last 200 kB). */
  output(): string;
  stop(): Promise<void>;
}

export interface StackOptions {
  /** Use this DynamoDB instead of starting DynamoDB Local. */
  readonly dynamoEndpoint?: string;
  readonly env?: Record<string, string>;
}

const READY_TIMEOUT_MS = 120_000;
const KEEP_OUTPUT = 200_000;

export async function startSoakStack(options: StackOptions = {}): Promise<SoakStack> {
  const dynamo: RunningDynamo | undefined = options.dynamoEndpoint
    ? undefined
    : await startDynamoLocalOnFreePort();
  const endpoint = options.dynamoEndpoint ?? dynamo?.endpoint ?? '';
  const emulator: RunningSqs = await startSqsEmulator(await freePort());
  const sqs = localSqsClient(emulator.endpoint);
  const queues = await ensureQueues(sqs);
  const topics = await ensureTopics(localSnsClient(emulator.endpoint), sqs);
  const gate = await startTcpGate(endpoint);
  const tableName = options.env?.TABLE_NAME ?? `soak-${randomUUID()}`;
  const env = {
    DYNAMODB_ENDPOINT: gate.endpoint,
    SQS_ENDPOINT: emulator.endpoint,
    SNS_ENDPOINT: emulator.endpoint,
    TABLE_NAME: tableName,
    DYNAMODB_CONTENTION: 'on',
    // 5 s (the default) on a loaded machine let events miss their batch's deadline five times
    // and be dead-lettered as transient (docs/reliability.md "Found"); AWS gives ≥ 6× the timeout.
    SQS_VISIBILITY_TIMEOUT_SECONDS: '10',
    EXPORT_WORKER: 'off',
    // Statements over day sums as soon as the projector adds them (DynamoDB Local's index never
    // trails), so the soak's statement checks read whole days from them (docs/contract.md §26).
    DAY_SUMS_SETTLE_SECONDS: '0',
    ...options.env,
  };
  let output = '';
  let child: ChildProcess | undefined;
  let base = '';
  const launch = async () => {
    const port = await freePort();
    const started = spawn(process.execPath, ['--import', 'tsx', 'local/start.ts'], {
      cwd: process.cwd(),
      env: { ...process.env, ...env, PORT: String(port), DYNAMODB_PORT: '', SQS_PORT: '' },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-KEEP_OUTPUT);
    };
    started.stdout?.on('data', collect);
    started.stderr?.on('data', collect);
    child = started;
    await ready(started, () => output);
    base = `http://127.0.0.1:${port}`;
  };
  const kill = async () => {
    const running = child;
    if (!running?.pid || running.exitCode !== null) return;
    const closed = new Promise((resolve) => running.once('close', resolve));
    try {
      process.kill(-running.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    await closed;
  };
  const reap = () => {
    if (child?.pid && child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };
  process.once('exit', reap);
  await launch();
  return {
    base: () => base,
    sqs,
    queues,
    topics,
    gate,
    dynamoEndpoint: endpoint,
    tableName,
    killAndRestart: async () => {
      await kill();
      await launch();
    },
    output: () => output,
    stop: async () => {
      await kill();
      process.removeListener('exit', reap);
      await gate.close();
      sqs.destroy();
      await emulator.stop();
      await dynamo?.stop();
    },
  };
}

function ready(child: ChildProcess, output: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => done(new Error(`no "ready" within ${READY_TIMEOUT_MS} ms:\n${output()}`)),
      READY_TIMEOUT_MS,
    );
    const onData = () => {
      if (/^ready$/m.test(output())) done();
    };
    const onExit = (code: number | null) =>
      done(new Error(`the stack exited with ${code} before "ready":\n${output()}`));
    function done(error?: Error) {
      clearTimeout(timer);
      child.stdout?.removeListener('data', onData);
      child.removeListener('exit', onExit);
      if (error) reject(error);
      else resolve();
    }
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}
