/**
 * One bench run: each section on a DynamoDB Local of its own behind the latency proxy, our
 * compositions and the baselines side by side (bench/fixture.ts), each measurement repeated in
 * alternating rounds (the order flips every round, so drift hits both sides), then cold starts.
 * Returns raw per-round numbers; report.ts judges.
 */
import { loadavg } from 'node:os';
import { startDynamoLocalOnFreePort } from '../kit/dynamo-local';
import { handlerEntry } from '../lib/constructs/shared/ledger-function';
import { localDynamoClient, type RunningDynamo } from '../local/services/dynamodb/dynamodb-local';
import { type BatchResults, measureBatches } from './batches/run';
import { type ColdStartResult, coldStartBench } from './cold-start/run';
import { type CpuMeter, cpuMeter } from './cpu';
import { type DeferredResults, measureDeferred } from './deferred/run';
import { type Fixture, fixture } from './fixture';
import { type HotResults, measureHot } from './hot/run';
import { type ReplayShape, replayAnatomyRound } from './http/replay-anatomy';
import {
  LATENCY_SCENARIOS,
  type LatencyRound,
  type LatencyScenario,
  latencyRound,
  type ThroughputRound,
  throughputRound,
} from './http/scenarios';
import {
  LATENCY_PROFILES,
  type LatencyProfile,
  type LatencyProxy,
  startLatencyProxy,
} from './latency-proxy';
import { progress } from './progress';
import type { BenchSection, BenchSettings, MachineInfo } from './settings';
import { SIDES } from './sides';
import { type SqsRound, sqsRound, transactionCeilingRound } from './sqs/scenarios';

export { SIDES };

export interface ThroughputCase {
  readonly inFlight: number;
  readonly accounts: number;
  readonly bySide: Record<string, ThroughputRound[]>;
}

export interface SqsCase {
  readonly accounts: 1 | 10;
  readonly bySide: Record<string, SqsRound[]>;
}

export interface SqsResults {
  readonly cases: SqsCase[];
  /** Per round: sequential / concurrent time of 10 raw transactions (the concurrency ceiling). */
  readonly transactionCeiling: number[];
}

export interface BenchResults {
  readonly settings: BenchSettings;
  readonly machine: MachineInfo;
  readonly loadAtEnd: number;
  /** side → scenario → rounds */
  readonly latency: Record<string, Record<LatencyScenario, LatencyRound[]>>;
  readonly throughput: ThroughputCase[];
  /** Per round: median ms of each raw replay shape. */
  readonly replayAnatomy: Record<ReplayShape, number>[];
  readonly sqs: SqsResults;
  /**
   * The HTTP latencies and the one-account throughput again, in the same run, on the AWS-like
   * latency profile (a transaction 3× a single-item call, bench/latency-proxy.ts).
   */
  readonly awsLike?: {
    readonly profile: string;
    readonly latency: BenchResults['latency'];
    readonly throughput: ThroughputCase[];
  };
  /** One account on the contention layer (docs/contract.md §20); absent unless measured. */
  readonly hot?: HotResults;
  /** Batches into one account against single requests (docs/contract.md §25); absent unless measured. */
  readonly batches?: BatchResults;
  readonly deferred?: DeferredResults;
  readonly coldStart: ColdStartResult[];
}

/** Round r runs the sides in order, round r+1 in reverse. */
const alternate = <T>(items: readonly T[], round: number): T[] =>
  round % 2 === 0 ? [...items] : [...items].reverse();

function append<T>(bySide: Record<string, T[]>, side: string, value: T): void {
  bySide[side] = [...(bySide[side] ?? []), value];
}

/** The throughput cases of a profile: in flight × accounts. */
type ThroughputCases = readonly (readonly [inFlight: number, accounts: number])[];

async function measureHttp(
  f: Fixture,
  s: BenchSettings,
  proxy: LatencyProxy,
  cases: ThroughputCases,
  cpu: CpuMeter,
  anatomy = true,
) {
  const latency: BenchResults['latency'] = {};
  for (const side of f.http) latency[side.name] = { first: [], replay: [], mismatch: [] };
  // Warm-up: JIT, sockets and the table's first writes, discarded.
  for (const side of f.http)
    for (const scenario of LATENCY_SCENARIOS)
      await latencyRound(side, scenario, s.smoke ? 1 : 5, proxy);
  for (let round = 0; round < s.rounds; round++) {
    progress(s, `latency round ${round + 1}/${s.rounds}`);
    for (const scenario of LATENCY_SCENARIOS)
      for (const side of alternate(f.http, round)) {
        latency[side.name]?.[scenario].push(
          await latencyRound(side, scenario, s.latencyRequests, proxy),
        );
      }
  }
  const replayAnatomy: Record<ReplayShape, number>[] = [];
  for (let round = 0; anatomy && round < s.rounds; round++) {
    progress(s, `replay anatomy round ${round + 1}/${s.rounds}`);
    const requests = Math.max(3, Math.round(s.latencyRequests / 3));
    replayAnatomy.push(await replayAnatomyRound(f.client, f.ledgerTable, requests, round));
  }
  const pair = f.http.filter((side) => side.name === SIDES.ours || side.name === SIDES.powertools);
  const throughput: ThroughputCase[] = [];
  for (const [inFlight, accounts] of cases) {
    const bySide: Record<string, ThroughputRound[]> = {};
    for (let round = 0; round < s.rounds; round++) {
      progress(s, `throughput ${inFlight} in flight, ${accounts} accounts, round ${round + 1}`);
      for (const side of alternate(pair, round)) {
        const targets = accounts === 1 ? [side.hotAccount] : side.spreadAccounts;
        append(
          bySide,
          side.name,
          await throughputRound(side, inFlight, targets, s.throughputRequests, proxy, cpu),
        );
      }
    }
    throughput.push({ inFlight, accounts, bySide });
  }
  return { latency, throughput, replayAnatomy };
}

async function measureSqs(f: Fixture, s: BenchSettings, proxy: LatencyProxy): Promise<SqsResults> {
  const cases: SqsCase[] = [];
  const transactionCeiling: number[] = [];
  for (let round = 0; round < s.rounds; round++) {
    transactionCeiling.push(await transactionCeilingRound(f.client, f.ledgerTable));
  }
  for (const side of f.sqs) await sqsRound(side, 10, 1, proxy);
  for (const accounts of [10, 1] as const) {
    const bySide: Record<string, SqsRound[]> = {};
    for (let round = 0; round < s.rounds; round++) {
      progress(s, `sqs batches over ${accounts} accounts, round ${round + 1}`);
      for (const side of alternate(f.sqs, round)) {
        append(bySide, side.name, await sqsRound(side, accounts, s.sqsBatches, proxy));
      }
    }
    cases.push({ accounts, bySide });
  }
  return { cases, transactionCeiling };
}

export interface RunBenchOptions {
  readonly settings: BenchSettings;
  readonly machine: MachineInfo;
  /** A running DynamoDB (Local) every section uses, instead of one started per section. */
  readonly dynamoEndpoint?: string;
}

/**
 * A DynamoDB Local of the section's own (or the one given), behind the latency proxy. DynamoDB
 * Local keeps every stream record in memory and each write slows down as they pile up, across
 * tables and after a table is deleted (a 5-item transaction: 7 ms fresh, ~465 ms after 60,000
 * streamed writes): a section that ran after another would measure a slower emulator.
 */
async function onDynamo<T>(
  options: RunBenchOptions,
  work: (
    endpoint: string,
    proxy: LatencyProxy,
    f: () => Promise<Fixture>,
    cpu: CpuMeter,
  ) => Promise<T>,
  profile?: LatencyProfile,
): Promise<T> {
  const dynamo: Pick<RunningDynamo, 'endpoint' | 'pid' | 'stop'> = options.dynamoEndpoint
    ? { endpoint: options.dynamoEndpoint, stop: async () => {} }
    : await startDynamoLocalOnFreePort({ options: { serverCompiler: true } });
  const proxy = await startLatencyProxy({
    target: dynamo.endpoint,
    rttMs: options.settings.rttMs,
    ...(profile ? { profile } : {}),
  });
  const client = localDynamoClient(proxy.endpoint);
  const setup = localDynamoClient(dynamo.endpoint);
  try {
    return await work(
      dynamo.endpoint,
      proxy,
      () => fixture(client, setup, options.settings.spreadAccounts),
      cpuMeter(dynamo.pid),
    );
  } finally {
    client.destroy();
    setup.destroy();
    await proxy.close();
    await dynamo.stop();
  }
}

export async function runBench(options: RunBenchOptions): Promise<BenchResults> {
  const { settings } = options;
  const runs = (section: BenchSection) => settings.sections.includes(section);
  const all: ThroughputCases = [
    [10, 1],
    [10, settings.spreadAccounts],
    [50, 1],
    [50, settings.spreadAccounts],
  ];
  const { latency, throughput, replayAnatomy } = runs('http')
    ? await onDynamo(options, async (_, proxy, f, cpu) =>
        measureHttp(await f(), settings, proxy, all, cpu),
      )
    : { latency: {}, throughput: [], replayAnatomy: [] };
  // The same sides again on the AWS-like profile: the latencies and 10 in flight on one account.
  const aws = LATENCY_PROFILES.awsLike();
  const awsLike = runs('http')
    ? await onDynamo(
        options,
        async (_, proxy, f, cpu) => measureHttp(await f(), settings, proxy, [[10, 1]], cpu, false),
        aws,
      )
    : undefined;
  const sqs = runs('sqs')
    ? await onDynamo(options, async (_, proxy, f) => measureSqs(await f(), settings, proxy))
    : { cases: [], transactionCeiling: [] };
  const hot = runs('hot')
    ? await onDynamo(options, (endpoint) => measureHot(endpoint, settings))
    : undefined;
  const batches = runs('batches')
    ? await onDynamo(options, (endpoint) => measureBatches(endpoint, settings))
    : undefined;
  const deferred = runs('deferred')
    ? await onDynamo(options, (endpoint) => measureDeferred(endpoint, settings))
    : undefined;
  if (runs('cold'))
    progress(settings, 'cold starts: bundling with CDK and importing in fresh processes');
  const coldStart = runs('cold')
    ? await coldStartBench(
        settings.initProcesses,
        !settings.smoke,
        settings.quiet,
        // The smoke run proves the section runs; test/infra/stacks/bundling.test.ts bundles all.
        settings.smoke ? [handlerEntry('http')] : undefined,
      )
    : [];
  return {
    settings,
    machine: options.machine,
    loadAtEnd: loadavg()[0] ?? 0,
    latency,
    throughput,
    replayAnatomy,
    ...(awsLike
      ? { awsLike: { profile: aws.name, latency: awsLike.latency, throughput: awsLike.throughput } }
      : {}),
    sqs,
    ...(hot ? { hot } : {}),
    ...(batches ? { batches } : {}),
    ...(deferred ? { deferred } : {}),
    coldStart,
  };
}
