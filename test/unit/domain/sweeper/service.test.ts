import { describe, expect, it } from 'vitest';
import type { DueItem } from '../../../../functions/domain/sweeper/port';
import { Sweeper, type SweepFailure } from '../../../../functions/domain/sweeper/service';
import { memoryDueIndex, recordingSweepHandler } from '../../../support/fakes/sweeper';

const NOW = new Date('2026-12-01T00:00:00.000Z');

const due = (kind: string, id: string, secondsAgo: number): DueItem => ({
  kind,
  dueAt: NOW.getTime() - secondsAgo * 1000,
  attributes: { pk: `${kind.toUpperCase()}#${id}` },
});

describe('Sweeper', () => {
  it('hands every due item of every shard to the handler of its kind', async () => {
    const holds = recordingSweepHandler('hold', () => 'settled');
    const executions = recordingSweepHandler('execution', () => 'settled');
    const index = memoryDueIndex([
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
    const holds = recordingSweepHandler('hold', () => 'settled');
    const index = memoryDueIndex([[due('hold', 'later', -10)]]);
    const report = await new Sweeper(index, [holds], { shardCount: 1 }).sweep(NOW);
    expect(holds.seen).toEqual([]);
    expect(report.byKind.get('hold')).toMatchObject({ settled: 0, oldestDueAgeSeconds: 0 });
  });

  it('counts a failed condition as already done, not as a failure', async () => {
    const holds = recordingSweepHandler('hold', () => 'already_done');
    const index = memoryDueIndex([[due('hold', 'a', 1)]]);
    const report = await new Sweeper(index, [holds], { shardCount: 1 }).sweep(NOW);
    expect(report.byKind.get('hold')).toMatchObject({ settled: 0, alreadyDone: 1, failed: 0 });
  });

  it('reports an item that cannot be settled and goes on with the rest', async () => {
    const failures: SweepFailure[] = [];
    const holds = recordingSweepHandler('hold', (item) => {
      if (item.attributes.pk === 'HOLD#bad') throw new Error('storage hiccup');
      return 'settled';
    });
    const index = memoryDueIndex([[due('hold', 'bad', 3), due('hold', 'good', 2)]]);
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
    const index = memoryDueIndex([[due('mystery', 'm', 1)]]);
    const report = await new Sweeper(index, [], {
      shardCount: 1,
      onFailure: (f) => failures.push(f),
    }).sweep(NOW);
    expect(report.byKind.get('mystery')).toMatchObject({ failed: 1 });
    expect(failures[0]?.error).toBeInstanceOf(Error);
    expect(String(failures[0]?.error)).toContain('mystery');
  });

  it('follows pages until a shard is drained', async () => {
    const holds = recordingSweepHandler('hold', () => 'settled');
    const items = Array.from({ length: 7 }, (_, i) => due('hold', `h${i}`, i));
    const index = memoryDueIndex([items]);
    await new Sweeper(index, [holds], { shardCount: 1, pageSize: 3 }).sweep(NOW);
    expect(holds.seen).toHaveLength(7);
    expect(index.queries).toBe(3);
  });

  it('stops starting pages once its time budget is spent, and says so', async () => {
    const holds = recordingSweepHandler('hold', () => 'settled');
    const items = Array.from({ length: 6 }, (_, i) => due('hold', `h${i}`, i));
    let elapsed = 0;
    const sweeper = new Sweeper(memoryDueIndex([items]), [holds], {
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
    const sweeper = new Sweeper(
      memoryDueIndex([]),
      [recordingSweepHandler('hold', () => 'settled')],
      {
        shardCount: 1,
      },
    );
    expect(() => sweeper.register(recordingSweepHandler('hold', () => 'settled'))).toThrow(
      /already/,
    );
    expect(sweeper.kinds).toEqual(['hold']);
  });
});
