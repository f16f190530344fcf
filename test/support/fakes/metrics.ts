import type { MetricsPort } from '../../../functions/domain/shared/metrics';

/** Records counts and readings in memory: for tests and for reading what a code path emitted. */
export function recordingMetrics(): MetricsPort & {
  counts: Map<string, number>;
  readings: Map<string, number[]>;
} {
  const counts = new Map<string, number>();
  const readings = new Map<string, number[]>();
  const keyOf = (name: string, dimension?: { name: string; value: string }) =>
    dimension ? `${name}[${dimension.name}=${dimension.value}]` : name;
  return {
    counts,
    readings,
    count(name, value = 1, dimension) {
      const key = keyOf(name, dimension);
      counts.set(key, (counts.get(key) ?? 0) + value);
    },
    seconds(name, value, dimension) {
      const key = keyOf(name, dimension);
      readings.set(key, [...(readings.get(key) ?? []), value]);
    },
  };
}
