import type { MetricsPort } from '../../functions/observability/metrics';

/** Records counts in memory: for tests and for reading what a code path emitted. */
export function recordingMetrics(): MetricsPort & { counts: Map<string, number> } {
  const counts = new Map<string, number>();
  return {
    counts,
    count(name, value = 1, dimension) {
      const key = dimension ? `${name}[${dimension.name}=${dimension.value}]` : name;
      counts.set(key, (counts.get(key) ?? 0) + value);
    },
  };
}
