import type { Lifecycle } from '../lifecycle';
import { type ContentionLayer, startContentionLayer } from './proxy';

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

/**
 * `DYNAMODB_CONTENTION=on`: the contention layer (proxy.ts) in front of `upstream`, so every
 * function of the stack meets conflicts and throttling as it would on DynamoDB.
 */
export async function startContentionService(
  lifecycle: Lifecycle,
  upstream: string,
  settings: ContentionSettings,
): Promise<ContentionLayer> {
  lifecycle.signal.throwIfAborted();
  const layer = await startContentionLayer({
    upstream,
    writeUnitsPerSecond: settings.writeUnitsPerSecond,
  });
  lifecycle.defer('DynamoDB contention layer', () => layer.close());
  return layer;
}
