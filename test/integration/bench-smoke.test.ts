/**
 * Keeps `npm run bench` working: a smoke run with tiny counts on the shared DynamoDB Local, of
 * the HTTP, SQS and one-account sections (bench-smoke-more.test.ts runs the rest beside it). It
 * asserts what a bench run must produce and the round trips each side costs — never a timing.
 */

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FULL_CHUNK } from '../../bench/hot/model';
import { HOT_SIDES, PRODUCERS } from '../../bench/hot/run';
import { REPLAY_SHAPES } from '../../bench/http/replay-anatomy';
import { writeReport } from '../../bench/report';
import { type BenchResults, runBench, SIDES } from '../../bench/run-bench';
import { benchSettings, machineInfo } from '../../bench/settings';
import { ceilingText, verdicts } from '../../bench/verdicts';
import { dynamoEndpoint } from '../support/dynamo-lease';

let results: BenchResults;
let docsDir: string;

beforeAll(async () => {
  docsDir = mkdtempSync(join(tmpdir(), 'ledger-bench-smoke-'));
  results = await runBench({
    settings: benchSettings({
      BENCH_SMOKE: '1',
      BENCH_RTT_MS: '0',
      BENCH_QUIET: '1',
      BENCH_ONLY: 'http,sqs,hot',
    }),
    machine: machineInfo(),
    dynamoEndpoint: dynamoEndpoint(),
  });
}, 240_000);

afterAll(() => rmSync(docsDir, { recursive: true, force: true }));

const callsOf = (side: string, scenario: 'first' | 'replay' | 'mismatch') => [
  ...new Set(results.latency[side]?.[scenario].flatMap((round) => round.calls)),
];

const transactionsOf = (side: string, scenario: 'first' | 'replay' | 'mismatch') => [
  ...new Set(results.latency[side]?.[scenario].flatMap((round) => round.transactions)),
];

it('counts one write, or one read, or both per request for us, three for a Powertools first', () => {
  // The adaptive claim read (docs/contract.md §4, §36): a first request always sends its
  // transaction (with or without the claim's GetItem); a replay or mismatch sends its
  // transaction (cancelled), the GetItem, or both — when which is
  // test/integration/accounts/hedged-claims.test.ts's.
  const oneOrTwo = (calls: number[]) => calls.length > 0 && calls.every((n) => n === 1 || n === 2);
  for (const side of [SIDES.ours, SIDES.oursLedger]) {
    for (const scenario of ['first', 'replay', 'mismatch'] as const)
      expect(callsOf(side, scenario), `${side} ${scenario}`).toSatisfy(oneOrTwo);
    expect(transactionsOf(side, 'first'), `${side} first`).toEqual([1]);
    for (const scenario of ['replay', 'mismatch'] as const)
      expect(transactionsOf(side, scenario), `${side} ${scenario}`).toSatisfy((n: number[]) =>
        n.every((t) => t === 0 || t === 1),
      );
  }
  expect(callsOf(SIDES.powertools, 'first')).toEqual([3]);
  expect(callsOf(SIDES.powertools, 'replay')).toEqual([1]);
  // Both local caches answer replays and mismatches of settled keys without a call.
  expect(callsOf(SIDES.oursCached, 'replay')).toEqual([0]);
  expect(callsOf(SIDES.oursCached, 'mismatch')).toEqual([0]);
  expect(callsOf(SIDES.powertoolsCached, 'replay')).toEqual([0]);
  expect(callsOf(SIDES.powertoolsCached, 'mismatch')).toEqual([0]);
});

it('measures what each throughput round costs the bench process in CPU', () => {
  expect(results.throughput.length).toBeGreaterThan(0);
  for (const c of results.throughput) {
    for (const rounds of Object.values(c.bySide)) {
      for (const round of rounds) expect(round.cpuMsPerRequest?.benchMs).toBeGreaterThan(0);
    }
  }
});

it('times every raw replay shape in every round', () => {
  expect(results.replayAnatomy).toHaveLength(results.settings.rounds);
  for (const round of results.replayAnatomy) {
    expect(Object.keys(round).sort()).toEqual(Object.keys(REPLAY_SHAPES).sort());
  }
});

it('commits every SQS record in one transaction per record, ours a batch of one account in one', () => {
  expect(results.sqs.transactionCeiling).toHaveLength(results.settings.rounds);
  for (const c of results.sqs.cases) {
    expect(Object.keys(c.bySide).sort()).toEqual([SIDES.ours, SIDES.sequential].sort());
    const calls = (side: string) => (c.bySide[side] ?? []).map((r) => r.callsPerRecord);
    expect(calls(SIDES.sequential)).toEqual(calls(SIDES.sequential).map(() => 1));
    // Over 10 accounts each record is alone in its lane; over one, the batch is one write.
    const ours = c.accounts === 10 ? 1 : 0.1;
    expect(calls(SIDES.ours)).toEqual(calls(SIDES.ours).map(() => ours));
  }
});

it('writes docs with every target, its verdict and the charts it links', () => {
  const judged = verdicts(results);
  const file = writeReport(results, judged, docsDir);
  const markdown = readFileSync(file, 'utf8');
  for (const v of judged) expect(markdown).toContain(`| ${v.measure} |`);
  // The shared DynamoDB Local's process is not ours to read: the bench process's CPU alone.
  expect(markdown).toContain('| CPU ms per request: bench process / DynamoDB Local |');
  expect(markdown).toMatch(/\| \d+\.\d{2} \/ – \|\n/);
  expect(judged.map((v) => v.target)).toEqual(
    expect.arrayContaining(['≤ 0.6', '≤ 1.2', '≥ 1.3', '≥ 3']),
  );
  const charts = [...markdown.matchAll(/\]\((benchmarks\/[\w-]+\.svg)\)/g)].map((m) => m[1]);
  expect(charts.length).toBeGreaterThanOrEqual(5);
  for (const chart of charts) {
    const svg = readFileSync(join(docsDir, chart as string), 'utf8');
    expect(svg).toMatch(/^<svg [^>]*>[\s\S]*<\/svg>\n$/);
    expect(svg).not.toContain('NaN');
  }
  expect(existsSync(join(docsDir, 'benchmarks', 'latency-replay.svg'))).toBe(true);
  // Each one-account ratio stands beside the most the layer allows it (its model ceiling).
  const oneAccount = judged.filter((v) => v.measure.startsWith('one account'));
  expect(oneAccount).toHaveLength(PRODUCERS.length + 1);
  for (const v of oneAccount) {
    expect(v.ceiling?.median).toBeGreaterThan(0);
    expect(markdown).toContain(`| ${ceilingText(v)} |`);
  }
});

it('runs the one-account section on the contention layer, every side and producer count', () => {
  const hot = results.hot;
  if (!hot) throw new Error('no one-account results');
  expect(hot.events.map((c) => c.producers)).toEqual([...PRODUCERS]);
  for (const c of hot.events) {
    const [today] = c.bySide[HOT_SIDES.today] ?? [];
    const [batched] = c.bySide[HOT_SIDES.batched100] ?? [];
    // Today commits one transaction per event; batched, one for the whole smoke round.
    expect(today?.transactionsPerEvent).toBe(1);
    expect(batched?.transactionsPerEvent).toBeLessThanOrEqual(2 / hot.eventsPerRound);
  }
  expect(Object.keys(hot.http).sort()).toEqual([HOT_SIDES.httpOurs, HOT_SIDES.httpToday].sort());
  // The layer's hold is measured for HTTP rounds too: what their ceiling is computed from.
  for (const rounds of Object.values(hot.http)) {
    for (const round of rounds) expect(round.holdMs).toBeGreaterThan(0);
  }
  const cost = (command: string) => hot.costs.find((c) => c.command === command);
  // The claim, the account, the entry and its pointer (docs/contract.md §16).
  expect(cost('HTTP credit')).toMatchObject({ transactions: 1, items: 4, writeUnits: 8 });
  // The fullest chunk is ONE transaction of at most 100 items.
  const full = cost(`${FULL_CHUNK} ledger events, batched`);
  expect(full?.transactions).toBe(1);
  expect(full?.items).toBeLessThanOrEqual(100);
});
