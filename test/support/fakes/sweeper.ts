import type {
  DueItem,
  DuePage,
  DuePort,
  SettleOutcome,
  SweepHandler,
} from '../../../functions/domain/sweeper/port';

/** `DuePort` in memory: shards as lists, paged like the index (`limit` items, then a position). */
export function memoryDueIndex(shards: DueItem[][]): DuePort & { queries: number } {
  const port = {
    queries: 0,
    async listDue(shard: number, dueBy: number, limit: number, after?: string): Promise<DuePage> {
      port.queries++;
      const eligible = (shards[shard] ?? []).filter((item) => item.dueAt <= dueBy);
      const start = after === undefined ? 0 : Number(after);
      const items = eligible.slice(start, start + limit);
      const end = start + items.length;
      return { items, next: end < eligible.length ? String(end) : undefined };
    },
  };
  return port;
}

/** A `SweepHandler` of `kind` that answers `outcome` and keeps the `pk` of each item it saw. */
export function recordingSweepHandler(
  kind: string,
  outcome: (item: DueItem) => SettleOutcome,
): SweepHandler & { readonly seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    kind,
    async settle(item: DueItem) {
      seen.push(String(item.attributes.pk));
      return outcome(item);
    },
  };
}
