/**
 * The busiest item's commits per credit for direct, deferred and batched credits into one
 * account (docs/contract.md §33): an item commits one transaction at a time on AWS, so this
 * count, not the emulator's wall clock, bounds the rate into one account at any latency.
 */
import type { BatchResults } from './batches/run';
import type { DeferredResults } from './deferred/run';
import { median } from './stats';

/** Commit latency the bound below assumes: the contention layer's hold, AWS's order. */
const COMMIT_MS = 10;

export function commitsSection(batches?: BatchResults, deferred?: DeferredResults): string[] {
  const rows: [string, readonly { busiestCommitsPerCredit: number }[]][] = [];
  if (deferred) rows.push(['direct: single credits (deferred section)', deferred.bySide.direct]);
  if (batches) rows.push(['direct: single credits (batches section)', batches.bySide.singles]);
  if (deferred)
    rows.push(['deferred: single credits, acceptance and posting', deferred.bySide.deferred]);
  if (batches) rows.push(['direct: independent batches of 100', batches.bySide.batches]);
  if (rows.length === 0) return [];
  return [
    "## The busiest item's commits per credit (docs/contract.md §33)",
    '',
    'Commits of the most-written item (the account item, a gate shard) per credit, counted by the',
    'contention layer over each round (median of rounds). An item commits one transaction at a time',
    `on AWS; at about ${COMMIT_MS} ms a commit, credits/s into one account are bounded by`,
    `1000 / (${COMMIT_MS} × commits per credit), whatever the client's latency.`,
    '',
    "| credits | busiest item's commits per credit | bound at 10 ms a commit, credits/s |",
    '| --- | --- | --- |',
    ...rows.map(([name, rounds]) => {
      const perCredit = median(rounds.map((r) => r.busiestCommitsPerCredit));
      const bound = perCredit > 0 ? (1000 / (COMMIT_MS * perCredit)).toFixed(0) : '–';
      return `| ${name} | ${perCredit.toFixed(3)} | ${bound} |`;
    }),
  ];
}
