/**
 * Keeps `npm run bench` working, second half (beside bench-smoke.test.ts, so the two halves run
 * on both workers): the batches, deferred-credits and cold-start sections with tiny counts on
 * the shared DynamoDB Local. It asserts what those sections must produce — never a timing.
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { POSTED_WITHIN_MS } from '../../bench/deferred/run';
import { writeReport } from '../../bench/report';
import { type BenchResults, runBench } from '../../bench/run-bench';
import { benchSettings, machineInfo } from '../../bench/settings';
import { verdicts } from '../../bench/verdicts';
import { dynamoEndpoint } from '../support/dynamo-lease';

let results: BenchResults;
let docsDir: string;

beforeAll(async () => {
  docsDir = mkdtempSync(join(tmpdir(), 'ledger-bench-smoke-more-'));
  results = await runBench({
    settings: benchSettings({
      BENCH_SMOKE: '1',
      BENCH_RTT_MS: '0',
      BENCH_QUIET: '1',
      BENCH_ONLY: 'batches,deferred,cold',
    }),
    machine: machineInfo(),
    dynamoEndpoint: dynamoEndpoint(),
  });
}, 240_000);

afterAll(() => rmSync(docsDir, { recursive: true, force: true }));

it('bundles every Lambda entry and the Powertools baseline, each with a budget but the baseline', () => {
  const names = results.coldStart.map((b) => b.name);
  expect(names).toContain('functions/handlers/http/handler.ts');
  expect(names).toContain('powertools');
  for (const bundle of results.coldStart) {
    expect(bundle.bytes).toBeGreaterThan(0);
    expect(bundle.initMs).toHaveLength(results.settings.initProcesses);
    expect(bundle.budgetBytes === undefined).toBe(bundle.name === 'powertools');
  }
});

it('reports batches and deferred credits into one account, judged against their targets', () => {
  const judged = verdicts(results);
  const markdown = readFileSync(writeReport(results, judged, docsDir), 'utf8');
  for (const v of judged) expect(markdown).toContain(`| ${v.measure} |`);
  expect(judged.map((v) => v.target)).toEqual(expect.arrayContaining(['≤ 500', '≤ 0.7']));
  // Batches into one account (docs/contract.md §25): measured, judged and reported.
  expect(results.batches?.bySide.batches.length).toBe(results.settings.rounds);
  expect(
    judged.some((v) => v.measure.startsWith('batches into one account') && v.target === '≥ 10'),
  ).toBe(true);
  expect(markdown).toContain('## Batches: one account');
  // Deferred credits into one account (docs/contract.md §24): measured, judged, reported beside
  // the AWS model, every credit posted after the last answer (the round checks balance, version).
  const deferred = results.deferred;
  expect(deferred?.bySide.deferred.length).toBe(results.settings.rounds);
  expect(deferred?.bySide.direct.length).toBe(results.settings.rounds);
  for (const round of deferred?.bySide.deferred ?? []) {
    expect(round.postedAfterMs).toBeLessThan(POSTED_WITHIN_MS);
  }
  expect(
    judged.some(
      (v) => v.measure.startsWith('deferred credits into one account') && v.target === '≥ 5',
    ),
  ).toBe(true);
  expect(markdown).toContain('## Deferred credits: one account');
  expect(deferred?.sizes.gate).toBeGreaterThan(0);
  expect(deferred?.sizes.postedAccount).toBeGreaterThan(deferred?.sizes.directAccount ?? 0);
  expect(markdown).toMatch(/\| 10 ms \| \d+ \| \d+ \| \d+ \| \d+ \| [\d.]+× \|/);
});

it("reports the busiest item's commits per credit for direct, deferred and batched credits (§33)", () => {
  const judged = verdicts(results);
  const markdown = readFileSync(writeReport(results, judged, docsDir), 'utf8');
  expect(markdown).toContain("## The busiest item's commits per credit");
  const perCredit = (rounds: readonly { busiestCommitsPerCredit: number }[] = []) =>
    rounds.map((r) => r.busiestCommitsPerCredit);
  // A direct credit commits its account item once; never less, and nothing retried commits twice.
  for (const value of perCredit(results.deferred?.bySide.direct)) expect(value).toBeCloseTo(1, 2);
  for (const value of perCredit(results.batches?.bySide.singles)) expect(value).toBeCloseTo(1, 2);
  // Gates share a deferred account's credits and the folder posts many per account update.
  for (const value of perCredit(results.deferred?.bySide.deferred)) {
    expect(value).toBeGreaterThan(0);
    expect(value).toBeLessThan(0.75);
  }
  // A batch coalesces its credits into one account update per transaction.
  for (const value of perCredit(results.batches?.bySide.batches)) {
    expect(value).toBeGreaterThan(0);
    expect(value).toBeLessThan(0.25);
  }
});
