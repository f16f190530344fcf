import { describe, expect, it } from 'vitest';
import type {
  DueItem,
  DuePage,
  DuePort,
  SettleOutcome,
} from '../../../../functions/domain/sweeper/port';
import { Sweeper, type SweepFailure } from '../../../../functions/domain/sweeper/service';

const NOW = new Date('2026-12-01T00:00:00.000Z');

const due = (kind: string, id: string, secondsAgo: number): DueItem => ({
  kind,
  dueAt: NOW.getTime() - secondsAgo * 1000,
  attributes: { pk: `${kind.toUpperCase()}#${id}` },
});

/** Shards as in-memory lists, paged like the index: `limit` items, then a position. */
function memoryIndex(shards: DueItem[][]): DuePort & { queries: number } {
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

function handler(kind: string, outcome: (item: DueItem) => SettleOutcome) {
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

describe('Sweeper', () => {
  it('hands every due item of every shard to the handler of its kind', async () => {
    const holds = handler('hold', () => 'settled');
    const executions = handler('execution', () => 'settled');
    const index = memoryIndex([
      [due('hold', 'a', 5), due('execution', 'x', 1)],
      [],
      [due('hold', 'b', 30)],
    ]);
    const report = await new Sweeper(index, [holds, executions], { shardCount: 3 }).sweep(NOW);
    expect(holds.seen.sort()).toEqual(['HOLD#a', 'HOLD#b']);
    expect(executions.seen).toEqual(['EXECUTION#x']);
    expect(report.byKind.get('hold')).toEqual({
      settled: 2,
      alreadyDone: 0,
      failed: 0,
      oldestDueAgeSeconds: 30,
    });
    expect(report.byKind.get('execution')?.settled).toBe(1);
  });

  it('leaves items that are not due yet alone', async () => {
    const holds = handler('hold', () => 'settled');
    const index = memoryIndex([[due('hold', 'later', -10)]]);
    const report = await new Sweeper(index, [holds], { shardCount: 1 }).sweep(NOW);
    expect(holds.seen).toEqual([]);
    expect(report.byKind.get('hold')).toMatchObject({ settled: 0, oldestDueAgeSeconds: 0 });
  });

  it('counts a failed condition as already done, not as a failure', async () => {
    const holds = handler('hold', () => 'already_done');
    const index = memoryIndex([[due('hold', 'a', 1)]]);
    const report = await new Sweeper(index, [holds], { shardCount: 1 }).sweep(NOW);
    expect(report.byKind.get('hold')).toMatchObject({ settled: 0, alreadyDone: 1, failed: 0 });
  });

  it('reports an item that cannot be settled and goes on with the rest', async () => {
    const failures: SweepFailure[] = [];
    const holds = handler('hold', (item) => {
      if (item.attributes.pk === 'HOLD#bad') throw new Error('storage hiccup');
      return 'settled';
    });
    const index = memoryIndex([[due('hold', 'bad', 3), due('hold', 'good', 2)]]);
    const sweeper = new Sweeper(index, [holds], {
      shardCount: 1,
      onFailure: (f) => failures.push(f),
    });
    const report = await sweeper.sweep(NOW);
    expect(report.byKind.get('hold')).toMatchObject({ settled: 1, failed: 1 });
    expect(failures.map((f) => f.attributes.pk)).toEqual(['HOLD#bad']);
  });

  it('reports a kind no handler is registered for as a failure', async () => {
    const failures: SweepFailure[] = [];
    const index = memoryIndex([[due('mystery', 'm', 1)]]);
    const report = await new Sweeper(index, [], {
      shardCount: 1,
      onFailure: (f) => failures.push(f),
    }).sweep(NOW);
    expect(report.byKind.get('mystery')).toMatchObject({ failed: 1 });
    expect(failures[0]?.error).toBeInstanceOf(Error);
    expect(String(failures[0]?.error)).toContain('mystery');
  });

  it('follows pages until a shard is drained', async () => {
    const holds = handler('hold', () => 'settled');
    const items = Array.from({ length: 7 }, (_, i) => due('hold', `h${i}`, i));
    const index = memoryIndex([items]);
    await new Sweeper(index, [holds], { shardCount: 1, pageSize: 3 }).sweep(NOW);
    expect(holds.seen).toHaveLength(7);
    expect(index.queries).toBe(3);
  });

  it('stops starting pages once its time budget is spent, and says so', async () => {
    const holds = handler('hold', () => 'settled');
    const items = Array.from({ length: 6 }, (_, i) => due('hold', `h${i}`, i));
    let elapsed = 0;
    const sweeper = new Sweeper(memoryIndex([items]), [holds], {
      shardCount: 1,
      pageSize: 2,
      budgetMs: 1_000,
      elapsedMs: () => {
        const now = elapsed;
        elapsed += 600;
        return now;
      },
    });
    const report = await sweeper.sweep(NOW);
    expect(holds.seen).toHaveLength(4);
    expect(report.truncated).toBe(true);
  });

  it('refuses a second handler for the same kind', () => {
    const sweeper = new Sweeper(memoryIndex([]), [handler('hold', () => 'settled')], {
      shardCount: 1,
    });
    expect(() => sweeper.register(handler('hold', () => 'settled'))).toThrow(/already/);
    expect(sweeper.kinds).toEqual(['hold']);
  });
});
