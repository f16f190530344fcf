import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { createLedgerClient, type LedgerClient } from '../../../client/index';
import { DEFAULT_TABLE_NAME } from '../../../functions/contract/local-stack';
import { freePort } from '../../../kit/free-port';
import { dynamoEndpointIfAny } from '../../support/dynamo-lease';

/**
 * Starts the local stack the way a newcomer does (`npm start` = node --import tsx local/start.ts), on free
 * ports, in its own process group, and waits for its `ready` line.
 */
export interface LocalStack {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly httpPort: number;
  readonly dynamoPort: number;
  readonly sqsPort: number;
  /** http://127.0.0.1:<httpPort> */
  readonly base: string;
  /** http://127.0.0.1:<sqsPort> */
  readonly sqsEndpoint: string;
  /** Where its table lives (the file's shared DynamoDB Local, or its own) and the table. */
  readonly dynamo: { readonly endpoint: string; readonly tableName: string };
  /** Everything the stack printed so far (stdout and stderr). */
  output(): string;
  /** Sends SIGINT (Ctrl-C) and resolves the exit code once its output is drained. */
  interrupt(): Promise<number | null>;
  /** Safety net: SIGKILLs the whole process group if anything is left. */
  kill(): void;
}

/**
 * Stacks run in their own process groups, so a Ctrl-C or a CI timeout that ends this worker
 * would not reach them: kill every group still alive when the worker goes.
 */
const liveGroups = new Set<number>();

/** Every stack this test file started, for the log a failing test prints (test/e2e/support/failure-log.ts). */
export const startedStacks = new Set<LocalStack>();
let reaperInstalled = false;
function reapOnExit(pid: number): void {
  liveGroups.add(pid);
  if (reaperInstalled) return;
  reaperInstalled = true;
  const reap = () => {
    for (const group of liveGroups) {
      try {
        process.kill(-group, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    liveGroups.clear();
  };
  process.once('exit', reap);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      reap();
      process.exit(130);
    });
  }
}

/**
 * `node`: `node --import tsx local/start.ts`, what `npm start` runs, without npm's processes.
 * `npm`: `npm start` itself, so the returned pid is npm's, as a newcomer's terminal has it.
 */
export type Launcher = 'node' | 'npm';

export interface StackOptions {
  /** @default 90_000 */
  readonly timeoutMs?: number;
  /** @default 'node' */
  readonly launcher?: Launcher;
  /**
   * `shared`: the e2e run's DynamoDB Local (its global setup starts one) with a table of this
   * stack's own, as `DYNAMODB_ENDPOINT` and `TABLE_NAME` make `npm start` do; `own`: the stack
   * starts and stops its own JVM, for the files that check that it does.
   * @default 'shared'
   */
  readonly dynamo?: 'shared' | 'own';
}

/** Starts a stack this often when a free port was taken before the stack bound it. */
const PORT_TAKEN_ATTEMPTS = 3;

export async function startLocalStack(
  env: Record<string, string> = {},
  options: StackOptions = {},
): Promise<LocalStack> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await launchLocalStack(env, options);
    } catch (error) {
      // A port asked of the OS is free only until someone binds it: on a busy machine another
      // process's outgoing connection can take it in the seconds before the stack listens.
      const taken = error instanceof Error && error.message.includes('is already in use');
      if (!taken || attempt >= PORT_TAKEN_ATTEMPTS) throw error;
    }
  }
}

async function launchLocalStack(
  env: Record<string, string>,
  options: StackOptions,
): Promise<LocalStack> {
  const { timeoutMs = 90_000, launcher = 'node', dynamo = 'shared' } = options;
  const httpPort = await freePort();
  const dynamoPort = await freePort();
  const sqsPort = await freePort();
  const shared = dynamo === 'shared' ? sharedDynamo() : {};
  const [command, args] =
    launcher === 'npm'
      ? ['npm', ['start', '--silent']]
      : [process.execPath, ['--import', 'tsx', 'local/start.ts']];
  const child = spawn(command, args, {
    cwd: process.cwd(),
    env: {
      ...process.env,
      PORT: String(httpPort),
      DYNAMODB_PORT: String(dynamoPort),
      SQS_PORT: String(sqsPort),
      DYNAMODB_ENDPOINT: '',
      SQS_ENDPOINT: '',
      ...shared,
      ...env,
    },
    detached: true, // its own process group: the orphan checks look at the whole group
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('could not start the local stack');
  reapOnExit(pid);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const closed = new Promise<number | null>((resolve) =>
    child.once('close', (code) => {
      liveGroups.delete(pid);
      resolve(code);
    }),
  );
  const stack: LocalStack = {
    child,
    pid,
    httpPort,
    dynamoPort,
    sqsPort,
    base: `http://127.0.0.1:${httpPort}`,
    sqsEndpoint: `http://127.0.0.1:${sqsPort}`,
    dynamo: {
      endpoint:
        env.DYNAMODB_ENDPOINT || shared.DYNAMODB_ENDPOINT || `http://127.0.0.1:${dynamoPort}`,
      tableName: env.TABLE_NAME ?? shared.TABLE_NAME ?? DEFAULT_TABLE_NAME,
    },
    output: () => output,
    interrupt: () => {
      process.kill(pid, 'SIGINT');
      return closed;
    },
    kill: () => {
      if (groupAlive(pid)) process.kill(-pid, 'SIGKILL');
    },
  };
  startedStacks.add(stack);
  try {
    await waitForReady(child, () => output, timeoutMs);
  } catch (error) {
    stack.kill();
    throw error;
  }
  return stack;
}

/**
 * The file's leased DynamoDB Local and a table name no other stack uses; nothing (the stack
 * starts its own) in a project whose global setup starts none.
 */
function sharedDynamo(): Record<string, string> {
  const endpoint = dynamoEndpointIfAny();
  return endpoint ? { DYNAMODB_ENDPOINT: endpoint, TABLE_NAME: `e2e-${randomUUID()}` } : {};
}

function waitForReady(child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`no "ready" within ${timeoutMs} ms:\n${output()}`));
    }, timeoutMs);
    const onData = () => {
      if (/^ready$/m.test(output())) {
        cleanup();
        resolve();
      }
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`the local stack exited with ${code} before "ready":\n${output()}`));
    };
    function cleanup() {
      clearTimeout(timer);
      child.stdout?.removeListener('data', onData);
      child.removeListener('exit', onExit);
    }
    // Registered after the collectors in startLocalStack, so output() already has the chunk.
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}

export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

export function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * The typed client (client/, docs/client.md) for the stack's API, as an application uses it:
 * with the local stack's X-Principal-Id for `principal`, or with no identity at all.
 */
export function clientFor(base: string, principal?: string): LedgerClient {
  return createLedgerClient({
    baseUrl: base,
    auth: principal === undefined ? { kind: 'none' } : { kind: 'local', principal },
  });
}

/** `Idempotency-Key` as the typed client takes it. */
export const key = (value: string) => ({ 'Idempotency-Key': value });

export const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
