/** Small statistics for the bench: percentiles of samples, medians of rounds with their spread. */

/** Nearest-rank percentile (p in 0..100) of unsorted samples; NaN for none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export const median = (values: readonly number[]): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/** A per-round value summarised across rounds: the median and the lowest and highest round. */
export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

export function spread(values: readonly number[]): Spread {
  return {
    median: median(values),
    min: Math.min(...values),
    max: Math.max(...values),
  };
}

/**
 * Ratios of two sides measured in the same rounds (ours_r / theirs_r), summarised: pairing each
 * round with itself cancels drift that hits both sides of that round.
 */
export function pairedRatio(ours: readonly number[], theirs: readonly number[]): Spread {
  if (ours.length !== theirs.length) throw new Error('paired ratio needs the same rounds');
  return spread(ours.map((value, i) => value / (theirs[i] as number)));
}

/** `1.23 (1.10–1.40)` with `digits` decimals. */
export function formatSpread(s: Spread, digits = 2): string {
  return `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;
}
