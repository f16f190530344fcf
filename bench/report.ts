/** Writes docs/benchmarks.md and its SVG charts from one run's results. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { batchesSection } from './batches/run';
import { barChart, lineChart } from './charts';
import { coldStartSection } from './cold-start/report';
import { commitsSection } from './commits';
import type { CpuSplit } from './cpu';
import { deferredSection } from './deferred/run';
import { hotSection } from './hot/report';
import { REPLAY_SHAPES, type ReplayShape } from './http/replay-anatomy';
import { LATENCY_SCENARIOS, type LatencyScenario, type ThroughputRound } from './http/scenarios';
import { color, ms, row } from './report-format';
import { type BenchResults, SIDES } from './run-bench';
import { formatSpread, median, percentile, spread } from './stats';
import { ceilingText, latencyRounds, roundP, type Verdict } from './verdicts';

/** Hand-written analysis kept between runs: everything between these markers survives. */
const FINDINGS_START = '<!-- findings:start -->';
const FINDINGS_END = '<!-- findings:end -->';
/** The one-account section's hand-written notes (the design note), kept the same way. */
const HOT_NOTES_START = '<!-- one-account-notes:start -->';
const HOT_NOTES_END = '<!-- one-account-notes:end -->';

const SCENARIO_TITLE: Record<LatencyScenario, string> = {
  first: 'First request (new key)',
  replay: 'Replay (same key, same body)',
  mismatch: 'Mismatch (same key, other body → 422)',
};

function kept(file: string, startMarker: string, endMarker: string): string {
  if (!existsSync(file)) return '_No analysis yet._';
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(startMarker);
  const end = text.indexOf(endMarker);
  if (start < 0 || end < start) return '_No analysis yet._';
  return text.slice(start + startMarker.length, end).trim();
}

export interface KeptNotes {
  readonly findings: string;
  readonly hotNotes: string;
}

function latencySection(results: BenchResults, charts: Map<string, string>): string[] {
  const lines = [
    '## Latency, one request at a time',
    '',
    'Median over rounds (lowest–highest round) of each round’s percentile, in ms; calls are',
    'DynamoDB calls through the proxy per request.',
    '',
    row(['scenario', 'side', 'p50 ms', 'p99 ms', 'DynamoDB calls']),
    row(['---', '---', '---', '---', '---']),
  ];
  for (const scenario of LATENCY_SCENARIOS) {
    const series = [];
    for (const side of Object.keys(results.latency)) {
      const rounds = latencyRounds(results, side, scenario);
      const calls = median(rounds.flatMap((r) => r.calls));
      lines.push(
        row([
          scenario,
          side,
          ms(roundP(rounds, 50)),
          ms(roundP(rounds, 99)),
          Number.isNaN(calls) ? '–' : calls,
        ]),
      );
      const pooled = rounds.flatMap((r) => r.samplesMs);
      const points = Array.from(
        { length: 99 },
        (_, i) => [i + 1, percentile(pooled, i + 1)] as const,
      );
      series.push({ name: side, color: color(side), points });
    }
    charts.set(
      `latency-${scenario}.svg`,
      lineChart({
        title: `${SCENARIO_TITLE[scenario]}: latency by percentile`,
        xLabel: 'percentile of requests (all rounds)',
        yLabel: 'ms',
        xTicks: [1, 25, 50, 75, 90, 99],
        series,
      }),
    );
  }
  lines.push('');
  for (const scenario of LATENCY_SCENARIOS) {
    lines.push(`![${SCENARIO_TITLE[scenario]}](benchmarks/latency-${scenario}.svg)`);
  }
  return lines;
}

function replayAnatomySection(results: BenchResults): string[] {
  const lines = [
    '### Why a replay that misses the cache costs more',
    '',
    'The raw call behind each replay, through the same proxy (median ms per round, lowest–highest):',
    '',
    row(['call', 'ms']),
    row(['---', '---']),
  ];
  for (const [shape, title] of Object.entries(REPLAY_SHAPES) as [ReplayShape, string][]) {
    lines.push(row([title, ms(results.replayAnatomy.map((round) => round[shape]))]));
  }
  return lines;
}

/** Median CPU per request of the rounds, `–` where a process was not measured. */
function cpuCell(rounds: readonly ThroughputRound[]): string {
  const of = (pick: (split: CpuSplit) => number | undefined): string => {
    const values = rounds.flatMap((r) => {
      const value = r.cpuMsPerRequest ? pick(r.cpuMsPerRequest) : undefined;
      return value === undefined ? [] : [value];
    });
    return values.length === rounds.length && values.length > 0 ? median(values).toFixed(2) : '–';
  };
  return `${of((split) => split.benchMs)} / ${of((split) => split.dynamoMs)}`;
}

function throughputSection(results: BenchResults, charts: Map<string, string>): string[] {
  const lines = [
    '## Throughput, first requests in flight',
    '',
    row([
      'in flight',
      'accounts',
      'side',
      'req/s',
      'DynamoDB calls per request',
      'CPU ms per request: bench process / DynamoDB Local',
    ]),
    row(['---', '---', '---', '---', '---', '---']),
  ];
  const groups = results.throughput.map((c) => ({
    label: `${c.inFlight} in flight, ${c.accounts} account${c.accounts === 1 ? '' : 's'}`,
    bars: Object.entries(c.bySide).map(([side, rounds]) => {
      const s = spread(rounds.map((r) => r.perSecond));
      lines.push(
        row([
          c.inFlight,
          c.accounts,
          side,
          formatSpread(s, 0),
          median(rounds.map((r) => r.callsPerRequest)).toFixed(2),
          cpuCell(rounds),
        ]),
      );
      return { name: side, color: color(side), value: s.median, min: s.min, max: s.max };
    }),
  }));
  charts.set(
    'throughput.svg',
    barChart({
      title: 'HTTP throughput (median, whisker: lowest–highest round)',
      yLabel: 'requests/s',
      groups,
    }),
  );
  lines.push('', '![HTTP throughput](benchmarks/throughput.svg)');
  return lines;
}

function sqsSection(results: BenchResults, charts: Map<string, string>): string[] {
  const lines = [
    '## SQS consumer, batches of 10',
    '',
    row(['accounts per batch', 'side', 'records/s', 'DynamoDB calls per record']),
    row(['---', '---', '---', '---']),
  ];
  const groups = results.sqs.cases.map((c) => ({
    label: `${c.accounts} account${c.accounts === 1 ? '' : 's'} per batch`,
    bars: Object.entries(c.bySide).map(([side, rounds]) => {
      const s = spread(rounds.map((r) => r.recordsPerSecond));
      lines.push(
        row([
          c.accounts,
          side,
          formatSpread(s, 0),
          median(rounds.map((r) => r.callsPerRecord)).toFixed(2),
        ]),
      );
      return { name: side, color: color(side), value: s.median, min: s.min, max: s.max };
    }),
  }));
  charts.set('sqs.svg', barChart({ title: 'SQS batches of 10', yLabel: 'records/s', groups }));
  lines.push(
    '',
    `Concurrency ceiling of this DynamoDB: 10 raw 3-item transactions at once finish ${formatSpread(spread(results.sqs.transactionCeiling))}×`,
    'faster than one after another (10× would be fully parallel). No consumer can beat that ratio here.',
    '',
    '![SQS consumer](benchmarks/sqs.svg)',
  );
  return lines;
}

export function renderReport(
  results: BenchResults,
  verdicts: readonly Verdict[],
  notes: KeptNotes,
): { markdown: string; charts: Map<string, string> } {
  const charts = new Map<string, string>();
  const { settings: s, machine: m } = results;
  const markdown = [
    '# Benchmarks',
    '',
    '<!-- Generated by `npm run bench` (bench/report.ts); only the analysis between the',
    '     findings markers is hand-written and kept across runs. -->',
    '',
    'Our HTTP credit path and SQS consumer against what a user would otherwise build: a',
    'Powertools 2.35 `makeIdempotent` handler doing the same business write (balance + entry in',
    'one 2-item `TransactWriteItems`, DynamoDB persistence layer, local cache off unless named),',
    'and a sequential one-transaction-per-record SQS loop. All sides call one DynamoDB Local',
    `through a proxy that adds ${s.rttMs} ms to every call (an in-region round trip) and counts calls.`,
    'Its tables have no stream: no section reads one, and DynamoDB Local charges every write for',
    "its stream emulation, which AWS's streams do not.",
    `Every measurement runs in ${s.rounds} rounds; the side order flips each round so drift hits`,
    'both sides; ratios are the median of per-round ratios, with the lowest and highest round.',
    'Replay targets count cache misses (both local caches off); cache hits are reported apart.',
    `The latency table also times a 5-leg ledger transaction (\`${SIDES.oursLedger}\`: one payer, four`,
    'payees, docs/contract.md §16) through the same composition: one call per request as well.',
    ...(results.awsLike
      ? [
          `The HTTP ratios are measured again in the same run on a second profile (measures marked`,
          `"AWS-like profile"): ${results.awsLike.profile}, on a DynamoDB Local of its own.`,
        ]
      : []),
    '',
    `Run: ${m.startedAt} · ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB · Node ${m.node} · ${m.os}`,
    `· load average ${m.loadAtStart.toFixed(1)} at start, ${results.loadAtEnd.toFixed(1)} at end`,
    `· ${s.latencyRequests} sequential requests per scenario, ${s.throughputRequests} per throughput`,
    `case, ${s.sqsBatches} batches per SQS case, per side and round${s.smoke ? ' · **smoke run: numbers mean nothing**' : ''}.`,
    '',
    'Reproduce: `npm run bench` (`BENCH_RTT_MS`, `BENCH_ROUNDS`, `BENCH_ONLY=http,sqs,hot,batches,deferred,cold`;',
    '`BENCH_SMOKE=1` for a quick check, `BENCH_QUIET=1` without progress lines).',
    '',
    '## Targets',
    '',
    row([
      'measure',
      'value: median (lowest–highest round)',
      'target',
      'verdict',
      'model ceiling on this layer',
    ]),
    row(['---', '---', '---', '---', '---']),
    ...verdicts.map((v) =>
      row([
        v.measure,
        v.display ?? formatSpread(v.ratio),
        v.target,
        v.pass ? 'PASS' : '**MISS**',
        ceilingText(v),
      ]),
    ),
    '',
    '## What the numbers say',
    '',
    FINDINGS_START,
    notes.findings,
    FINDINGS_END,
    '',
    ...(Object.keys(results.latency).length > 0 ? [...latencySection(results, charts), ''] : []),
    ...(results.replayAnatomy.length > 0 ? [...replayAnatomySection(results), ''] : []),
    ...(results.throughput.length > 0 ? [...throughputSection(results, charts), ''] : []),
    ...(results.sqs.cases.length > 0 ? [...sqsSection(results, charts), ''] : []),
    ...(results.hot
      ? [...hotSection(results.hot, `${HOT_NOTES_START}\n${notes.hotNotes}\n${HOT_NOTES_END}`), '']
      : []),
    ...(results.batches ? [...batchesSection(results.batches), ''] : []),
    ...(results.deferred ? [...deferredSection(results.deferred), ''] : []),
    ...(results.batches || results.deferred
      ? [...commitsSection(results.batches, results.deferred), '']
      : []),
    ...(results.coldStart.length > 0 ? [...coldStartSection(results, charts), ''] : []),
  ].join('\n');
  return { markdown, charts };
}

/** Writes `benchmarks.md` and `benchmarks/*.svg` into `docsDir`, keeping its findings. */
export function writeReport(
  results: BenchResults,
  verdicts: readonly Verdict[],
  docsDir: string,
): string {
  const file = join(docsDir, 'benchmarks.md');
  const { markdown, charts } = renderReport(results, verdicts, {
    findings: kept(file, FINDINGS_START, FINDINGS_END),
    hotNotes: kept(file, HOT_NOTES_START, HOT_NOTES_END),
  });
  mkdirSync(join(docsDir, 'benchmarks'), { recursive: true });
  for (const [name, svg] of charts) writeFileSync(join(docsDir, 'benchmarks', name), svg);
  writeFileSync(file, markdown);
  return file;
}
