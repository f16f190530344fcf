import type { JournalRow, MonitorRow } from '../../shared/api';

/**
 * What the balance chart draws (docs/contract.md §29), without the DOM so that it is
 * unit-tested: one step per journal record at its commit time, a line per monitor threshold,
 * and an x range a reader can read whatever the records' times are.
 */
export interface ChartData {
  /**
   * Seconds since the epoch, strictly increasing: the axis' left edge, each record, the right
   * edge (so a threshold spans the chart and the last balance holds to the edge).
   */
  readonly x: readonly number[];
  /** Major units at each x; at the left edge, the values before the first record. */
  readonly balance: readonly (number | null)[];
  readonly available: readonly (number | null)[];
  /** One flat line per monitor, at its threshold, in major units. */
  readonly thresholds: readonly { readonly label: string; readonly y: readonly number[] }[];
  /** The x axis' [min, max] in seconds: never empty, never wider than the records need. */
  readonly range: readonly [number, number];
}

/** Records committed together (deferred credits the folder posted at once) step apart by this. */
export const SAME_TIME_STEP_SECONDS = 0.001;
/** Half the width of the x axis around a single instant. */
export const SINGLE_INSTANT_PAD_SECONDS = 30;

export const OPERATOR_SIGNS = { lt: '<', lte: '≤', gt: '>', gte: '≥' } as const;

export function chartData(
  records: readonly JournalRow[],
  monitors: readonly MonitorRow[],
  digits: number,
  describe: (minor: number) => string,
): ChartData {
  const scale = (minor: number) => minor / 10 ** digits;
  const x: number[] = [];
  for (const record of records) {
    const at = Date.parse(record.committedAt) / 1000;
    const previous = x.at(-1);
    // Equal (or clock-skewed) times keep journal order, a millisecond apart, so each record is
    // its own step instead of a vertical line with a collapsed axis.
    x.push(previous !== undefined && at <= previous ? previous + SAME_TIME_STEP_SECONDS : at);
  }
  const first = x[0] ?? 0;
  const last = x.at(-1) ?? first;
  const pad = last - first < 1 ? SINGLE_INSTANT_PAD_SECONDS : (last - first) * 0.02;
  // At the left edge, what the account held before its first record (after less delta); at
  // the right edge, what it holds since its last.
  const edges = (before: number | null, values: number[]) => [
    before,
    ...values,
    values.at(-1) ?? null,
  ];
  const head = records[0];
  const axis = [first - pad, ...x, last + pad];
  return {
    x: axis,
    balance: edges(
      head ? scale(head.balanceAfter - head.balanceDelta) : null,
      records.map((r) => scale(r.balanceAfter)),
    ),
    available: edges(
      head ? scale(head.availableAfter - head.availableDelta) : null,
      records.map((r) => scale(r.availableAfter)),
    ),
    thresholds: monitors.map((m) => ({
      label: `monitor: ${m.field} ${OPERATOR_SIGNS[m.operator]} ${describe(m.value)}`,
      y: axis.map(() => scale(m.value)),
    })),
    range: [first - pad, last + pad],
  };
}
