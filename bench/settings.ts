/** What a bench run measures and how often; read from the environment once. */
import { cpus, loadavg, platform, release, totalmem } from 'node:os';

export const BENCH_SECTIONS = ['http', 'sqs', 'hot', 'batches', 'deferred', 'cold'] as const;
export type BenchSection = (typeof BENCH_SECTIONS)[number];

export interface BenchSettings {
  /** What to measure (`BENCH_ONLY=http,sqs,hot,batches,deferred,cold`, default all); a partial run for quick checks. */
  readonly sections: readonly BenchSection[];
  /** Added to every DynamoDB call by the proxy (`BENCH_RTT_MS`, default 2). */
  readonly rttMs: number;
  /** Alternating rounds per measurement (`BENCH_ROUNDS`, default 5). */
  readonly rounds: number;
  /** Sequential requests per scenario, side and round. */
  readonly latencyRequests: number;
  /** Requests per throughput measurement, side and round. */
  readonly throughputRequests: number;
  /** Batches of 10 per SQS measurement, side and round. */
  readonly sqsBatches: number;
  /** Accounts the "spread" throughput case posts to (100; fewer in a smoke run). */
  readonly spreadAccounts: number;
  /** Fresh `node` processes per bundle for module init. */
  readonly initProcesses: number;
  /** Tiny counts that only prove the bench still runs (`BENCH_SMOKE=1`). */
  readonly smoke: boolean;
  /** No progress lines on stderr (`BENCH_QUIET=1`; the test suite's smoke run). */
  readonly quiet: boolean;
}

const positive = (value: string | undefined, fallback: number): number => {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(n) && n >= 0 ? n : fallback;
};

export function benchSettings(env: NodeJS.ProcessEnv): BenchSettings {
  const smoke = env.BENCH_SMOKE === '1';
  const only = env.BENCH_ONLY?.split(',').map((s) => s.trim());
  return {
    sections: BENCH_SECTIONS.filter((section) => !only || only.includes(section)),
    rttMs: positive(env.BENCH_RTT_MS, 2),
    rounds: positive(env.BENCH_ROUNDS, smoke ? 1 : 5),
    latencyRequests: smoke ? 3 : 150,
    throughputRequests: smoke ? 20 : 300,
    sqsBatches: smoke ? 2 : 20,
    spreadAccounts: smoke ? 5 : 100,
    initProcesses: smoke ? 1 : 20,
    smoke,
    quiet: env.BENCH_QUIET === '1',
  };
}

export interface MachineInfo {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly node: string;
  readonly os: string;
  /** 1-minute load average when the run started (other work on the machine adds noise). */
  readonly loadAtStart: number;
  readonly startedAt: string;
}

export function machineInfo(): MachineInfo {
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    os: `${platform()} ${release()}`,
    loadAtStart: loadavg()[0] ?? 0,
    startedAt: new Date().toISOString(),
  };
}

/**
 * The bench's ledger tables have no stream: no section reads one, and DynamoDB Local's stream
 * emulation adds to every write, more as its records pile up, what a stream on AWS does not
 * (docs/architecture.md "Testing notes"). It would weigh on the side that writes more items.
 */
export const BENCH_TABLE = { stream: false } as const;
