import type { Lifecycle } from '../lifecycle';
import { type ContentionLayer, type ContentionStats, startContentionLayer } from './proxy';

/**
 * DynamoDB's 1,000 write units per partition and second, scaled down for the contention layer:
 * DynamoDB Local commits a transaction several times slower than DynamoDB, so a hot account
 * meets its budget locally at about the rate it would on AWS (docs/benchmarks.md "One account").
 */
export const DEFAULT_CONTENTION_WRITE_UNITS = 250;

export interface ContentionSettings {
  /** Write units per second and item (DYNAMODB_CONTENTION_WCU). */
  readonly writeUnitsPerSecond: number;
}

/** How often the layer reports what it did, when it did anything. */
export const CONTENTION_REPORT_INTERVAL_MS = 5_000;

/** One line about an interval: what committed, what was cancelled and why. */
export function contentionLine(stats: ContentionStats, previous: ContentionStats): string {
  const d = (key: Exclude<keyof ContentionStats, 'repeatedCommits'>) => stats[key] - previous[key];
  const hold = d('forwarded') > 0 ? (d('heldMs') / d('forwarded')).toFixed(1) : '-';
  return (
    `${d('transactions')} transactions committed (items held ${hold} ms each), ` +
    `${d('conflicts')} cancelled for a held item ` +
    `(TransactionConflict), ${d('plainConflicts')} plain writes refused ` +
    `(TransactionConflictException), ${d('throttled')} throttled; total ${stats.transactions} ` +
    `committed, ${stats.conflicts} conflicts, ${stats.throttled} throttled`
  );
}

/**
 * `DYNAMODB_CONTENTION=on`: the contention layer (proxy.ts) in front of `upstream`, so every
 * function of the stack meets conflicts and throttling as it would on DynamoDB.
 */
export async function startContentionService(
  lifecycle: Lifecycle,
  upstream: string,
  settings: ContentionSettings,
  log: (line: string) => void = () => {},
): Promise<ContentionLayer> {
  lifecycle.signal.throwIfAborted();
  const layer = await startContentionLayer({
    upstream,
    writeUnitsPerSecond: settings.writeUnitsPerSecond,
  });
  let previous = { ...layer.stats };
  // So anyone can watch a hot account locally: a line every few seconds while writes happen.
  const report = setInterval(() => {
    const now = { ...layer.stats };
    const changed = (Object.keys(now) as (keyof ContentionStats)[]).some(
      (key) => key !== 'heldMs' && now[key] !== previous[key],
    );
    if (changed) log(contentionLine(now, previous));
    previous = now;
  }, CONTENTION_REPORT_INTERVAL_MS);
  report.unref();
  lifecycle.defer('DynamoDB contention layer', async () => {
    clearInterval(report);
    await layer.close();
  });
  return layer;
}
