/** Turns a run's rounds into ratios with their targets (docs/contract.md §14 "Benchmarks"). */
import { basename, dirname } from 'node:path';
import { batchesRatio } from './batches/run';
import type { ColdStartResult } from './cold-start/run';
import { deferredRatio } from './deferred/run';
import { hotVerdicts } from './hot/report';
import type { LatencyRound, LatencyScenario } from './http/scenarios';
import { type BenchResults, SIDES } from './run-bench';
import { formatSpread, pairedRatio, percentile, type Spread, spread } from './stats';

export interface Verdict {
  readonly measure: string;
  readonly ratio: Spread;
  /** `≤ 0.6` or `≥ 1.3`. */
  readonly target: string;
  readonly pass: boolean;
  /** Shown instead of the ratio when the measure is not a ratio (e.g. a size). */
  readonly display?: string;
  /**
   * The ratio the measured side would show at its modelled ceiling on the same layer (one-account
   * measures): a target above it is out of reach of any retry or scheduling policy there.
   */
  readonly ceiling?: Spread;
}

const atMost = (measure: string, ratio: Spread, limit: number): Verdict => ({
  measure,
  ratio,
  target: `≤ ${limit}`,
  pass: ratio.median <= limit,
});
const atLeast = (measure: string, ratio: Spread, limit: number): Verdict => ({
  measure,
  ratio,
  target: `≥ ${limit}`,
  pass: ratio.median >= limit,
});

export const roundP = (rounds: readonly LatencyRound[], p: number): number[] =>
  rounds.map((r) => percentile(r.samplesMs, p));

export function latencyRounds(
  results: BenchResults,
  side: string,
  scenario: LatencyScenario,
): LatencyRound[] {
  return results.latency[side]?.[scenario] ?? [];
}

/** A function's short name: `functions/handlers/http/handler.ts` → `http`. */
export const functionName = (bundle: ColdStartResult): string =>
  bundle.name === 'powertools'
    ? 'Powertools handler'
    : bundle.name.startsWith('probe:')
      ? `(probe) ${bundle.name.slice('probe:'.length)}`
      : basename(dirname(bundle.name));

export function baselineBundle(results: BenchResults): ColdStartResult | undefined {
  return results.coldStart.find((b) => b.name === 'powertools');
}

/** The HTTP ratios of one latency profile; `suffix` names the profile in each measure. */
function httpVerdicts(
  latency: BenchResults['latency'],
  throughput: BenchResults['throughput'],
  suffix: string,
): Verdict[] {
  const out: Verdict[] = [];
  const p50 = (side: string, scenario: LatencyScenario) =>
    roundP(latency[side]?.[scenario] ?? [], 50);
  if (Object.keys(latency).length > 0)
    out.push(
      atMost(
        'first request p50, ours / Powertools',
        pairedRatio(p50(SIDES.ours, 'first'), p50(SIDES.powertools, 'first')),
        0.6,
      ),
      atMost(
        'replay p50 (cache misses), ours / Powertools',
        pairedRatio(p50(SIDES.ours, 'replay'), p50(SIDES.powertools, 'replay')),
        1.2,
      ),
      // Hits apart (docs/contract.md §14): both sides with their local cache on, no call at all.
      atMost(
        'replay p50 (cache hits, both local caches on), ours / Powertools',
        pairedRatio(p50(SIDES.oursCached, 'replay'), p50(SIDES.powertoolsCached, 'replay')),
        1.2,
      ),
    );
  for (const c of throughput.filter((t) => t.accounts === 1)) {
    const ours = (c.bySide[SIDES.ours] ?? []).map((r) => r.perSecond);
    const theirs = (c.bySide[SIDES.powertools] ?? []).map((r) => r.perSecond);
    out.push(
      atLeast(
        `throughput, ${c.inFlight} in flight on one account, ours / Powertools`,
        pairedRatio(ours, theirs),
        1.3,
      ),
    );
  }
  return out.map((v) => ({ ...v, measure: `${v.measure}${suffix}` }));
}

export function verdicts(results: BenchResults): Verdict[] {
  const out: Verdict[] = [
    ...httpVerdicts(results.latency, results.throughput, ''),
    ...(results.awsLike
      ? httpVerdicts(results.awsLike.latency, results.awsLike.throughput, ', AWS-like profile')
      : []),
  ];
  for (const c of results.sqs.cases.filter((s) => s.accounts === 10)) {
    const ours = (c.bySide[SIDES.ours] ?? []).map((r) => r.recordsPerSecond);
    const loop = (c.bySide[SIDES.sequential] ?? []).map((r) => r.recordsPerSecond);
    out.push(
      atLeast(
        'SQS batch of 10 over 10 accounts, ours / sequential loop',
        pairedRatio(ours, loop),
        3,
      ),
    );
  }
  if (results.hot) {
    for (const v of hotVerdicts(results.hot)) {
      out.push({
        ...atLeast(v.measure, pairedRatio(v.ours, v.theirs), v.atLeast),
        ceiling: pairedRatio(v.ceiling, v.theirs),
      });
    }
  }
  if (results.batches) {
    const { batches, singles } = batchesRatio(results.batches);
    out.push(
      atLeast(
        'batches into one account: credits/s, batches of 100 (10 in flight) / single requests (80 in flight)',
        pairedRatio(batches, singles),
        10,
      ),
    );
  }
  if (results.deferred) {
    const { deferred, direct } = deferredRatio(results.deferred);
    out.push(
      atLeast(
        'deferred credits into one account: credits/s, deferred / direct account (80 in flight each)',
        pairedRatio(deferred, direct),
        5,
      ),
    );
  }
  const baseline = baselineBundle(results);
  for (const bundle of results.coldStart) {
    if (bundle === baseline || bundle.budgetBytes === undefined) continue;
    const kb = bundle.bytes / 1024;
    const budget = bundle.budgetBytes / 1024;
    out.push({
      measure: `${functionName(bundle)} bundle size, KB`,
      ratio: spread([kb]),
      display: kb.toFixed(0),
      target: `≤ ${budget}`,
      pass: kb <= budget,
    });
    if (baseline) {
      out.push(
        atMost(
          `${functionName(bundle)} module init, ours / Powertools handler`,
          pairedRatio(bundle.initMs, baseline.initMs),
          0.7,
        ),
      );
    }
  }
  return out;
}

/** What the ceiling of a one-account measure says, or '–' for the rest. */
export const ceilingText = (v: Verdict): string =>
  v.ceiling ? `${formatSpread(v.ceiling)}×` : '–';

export function verdictLine(v: Verdict): string {
  const ceiling = v.ceiling ? `  (at most ${ceilingText(v)} on this layer)` : '';
  return `${(v.display ?? formatSpread(v.ratio)).padStart(22)}  target ${v.target.padEnd(6)} ${v.pass ? 'PASS' : 'MISS'}  ${v.measure}${ceiling}`;
}
