/**
 * The model of one account's ceiling (docs/contract.md §20): DynamoDB cancels overlapping
 * transactions on an item, so the account item commits about one transaction per transaction
 * latency; and a partition serves 1,000 write units a second, a transactional write costing 2
 * per KB. So
 *
 *   events/s ≈ records per transaction × min(1 / latency, (units per second / 2) / item KB)
 *
 * with item KB the account item's billed size. `npm run bench` holds its measured points
 * against it (with the contention layer's scaled-down budget); run this file for the AWS table:
 *   node --import tsx bench/hot/model.ts [item bytes of a write of 1, 10, FULL_CHUNK records]
 */
import { PARTITION_WRITE_UNITS_PER_SECOND } from '../../functions/contract/events';
import { chunksOf } from '../../functions/domain/events/runs';
import { isScript } from '../script';

/**
 * Records in the fullest chunk one transaction carries for one producer's numbered credits (as
 * the bench sends them): what runs.ts allows, not a number of the bench's own.
 */
export const FULL_CHUNK = (
  chunksOf(
    Array.from({ length: 100 }, (_, i) => ({
      source: 'urn:model',
      id: String(i),
      type: 'credit' as const,
      accountId: 'model',
      amount: 1,
      currency: 'EUR',
      sequence: i + 1,
      contentHash: '',
    })),
  )[0] ?? []
).length;

export interface ModelPoint {
  readonly recordsPerTransaction: number;
  /** How long one transaction holds the account item, ms. */
  readonly latencyMs: number;
  /** The account item's size in bytes (billed in whole KB). */
  readonly itemBytes: number;
  /** @default 1,000, DynamoDB's per-partition limit */
  readonly writeUnitsPerSecond?: number;
}

/** Transactions per second one item allows: the lower of the latency and the budget bound. */
export function transactionsPerSecond(point: ModelPoint): number {
  const units = point.writeUnitsPerSecond ?? PARTITION_WRITE_UNITS_PER_SECOND;
  const kb = Math.max(1, Math.ceil(point.itemBytes / 1024));
  return Math.min(1000 / point.latencyMs, units / 2 / kb);
}

export function modelEventsPerSecond(point: ModelPoint): number {
  return point.recordsPerTransaction * transactionsPerSecond(point);
}

/** Which bound holds the point back. */
export function boundOf(point: ModelPoint): 'latency' | 'write units' {
  const units = point.writeUnitsPerSecond ?? PARTITION_WRITE_UNITS_PER_SECOND;
  const kb = Math.max(1, Math.ceil(point.itemBytes / 1024));
  return 1000 / point.latencyMs <= units / 2 / kb ? 'latency' : 'write units';
}

/** Largest item (the account item) of a write of 1, 10 and FULL_CHUNK records, in bytes. */
export interface HotItemSizes {
  readonly perRecord: number;
  readonly batched10: number;
  readonly batchedFull: number;
}

/** The AWS table: per-record and batched, at typical transaction latencies. */
export function awsCeilingRows(sizes: HotItemSizes): string[][] {
  const rows: string[][] = [];
  for (const latencyMs of [10, 20, 40]) {
    for (const [label, records, bytes] of [
      ['per record', 1, sizes.perRecord],
      ['batched, 10 a transaction', 10, sizes.batched10],
      [`batched, ${FULL_CHUNK} a transaction`, FULL_CHUNK, sizes.batchedFull],
    ] as const) {
      const point = { recordsPerTransaction: records, latencyMs, itemBytes: bytes };
      rows.push([
        `${latencyMs} ms`,
        label,
        `${Math.max(1, Math.ceil(bytes / 1024))} KB`,
        modelEventsPerSecond(point).toFixed(0),
        boundOf(point),
      ]);
    }
  }
  return rows;
}

if (isScript(import.meta.url)) {
  const [perRecord = 400, batched10 = 2_000, batchedFull = 4_000] = process.argv
    .slice(2)
    .map(Number);
  console.log('latency | writes | account item | events/s | bound');
  for (const row of awsCeilingRows({ perRecord, batched10, batchedFull })) {
    console.log(row.join(' | '));
  }
}
