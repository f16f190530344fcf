import { describe, expect, it } from 'vitest';
import type { IntakeDuePort } from '../../../../functions/domain/intake/port';
import { INTAKE_DUE_KIND, intakeSweep } from '../../../../functions/domain/intake/sweep';

/** The sweep's handler of INTAKE_DUE markers (docs/contract.md §24 "Credits never strand"). */
const NOW = new Date('2026-12-01T10:05:00.000Z');
const due = (accountId: string, marks = 3) => ({
  kind: INTAKE_DUE_KIND,
  dueAt: NOW.getTime() - 1000,
  attributes: { accountId, marks },
});

function rig(oldest: Record<string, string | undefined>, refuse = false) {
  const calls: string[] = [];
  const markers: IntakeDuePort = {
    mark: async () => undefined,
    marks: async () => undefined,
    clear: async (accountId, marks) => void calls.push(`clear ${accountId} ${marks}`),
    oldestPendingAt: async (accountId) => oldest[accountId],
    postpone: async (accountId, since, dueAt) =>
      void calls.push(`postpone ${accountId} ${since} ${dueAt.toISOString()}`),
  };
  const queue = {
    notify: async (ids: readonly string[]) => {
      calls.push(`notify ${ids.join(',')}`);
      return refuse ? [...ids] : [];
    },
  };
  return { calls, sweep: intakeSweep(markers, queue, 60) };
}

describe('the intake sweep (docs/contract.md §24)', () => {
  it('queues a stranded account again, keeps its marker due and measures the lag', async () => {
    const { calls, sweep } = rig({ a: '2026-12-01T10:03:00.000Z', b: '2026-12-01T10:04:00.000Z' });
    expect(await sweep.handler.settle(due('a'), NOW)).toBe('settled');
    expect(await sweep.handler.settle(due('b'), NOW)).toBe('settled');
    // Due 1 ms after this sweep's instant: not again in this pass, in every later one.
    expect(calls).toEqual([
      'notify a',
      'postpone a 2026-12-01T10:03:00.000Z 2026-12-01T10:05:00.001Z',
      'notify b',
      'postpone b 2026-12-01T10:04:00.000Z 2026-12-01T10:05:00.001Z',
    ]);
    expect(sweep.takeLag()).toBe(120);
    expect(sweep.takeLag()).toBeUndefined();
  });

  it('a stranded account is queued and measured by every sweep, however soon it runs', async () => {
    const oldest = '2026-12-01T10:03:00.000Z';
    const { calls, sweep } = rig({ a: oldest });
    // The marker as the due index holds it: a sweep takes it when dueAt <= its instant. The
    // schedule says "every minute"; real runs come a little early or late.
    let dueAt = NOW.getTime() - 1000;
    const lags: (number | undefined)[] = [];
    for (const seconds of [0, 59, 118, 178.5, 238, 299]) {
      const now = new Date(NOW.getTime() + seconds * 1000);
      if (dueAt <= now.getTime()) await sweep.handler.settle(due('a'), now);
      const postponed = calls.at(-1)?.split(' ').at(-1);
      if (postponed) dueAt = Date.parse(postponed);
      lags.push(sweep.takeLag());
    }
    expect(calls.filter((call) => call === 'notify a')).toHaveLength(6);
    expect(lags).toEqual([120, 179, 238, 298.5, 358, 419]);
  });

  it('a marker whose oldest pending credit is younger falls due when that one strands', async () => {
    const { calls, sweep } = rig({ a: '2026-12-01T10:04:30.000Z' });
    expect(await sweep.handler.settle(due('a'), NOW)).toBe('settled');
    expect(calls).toEqual([
      'notify a',
      'postpone a 2026-12-01T10:04:30.000Z 2026-12-01T10:05:30.000Z',
    ]);
    expect(sweep.takeLag()).toBe(30);
  });

  it("deletes a drained account's marker (at the count it listed) without queueing it", async () => {
    const { calls, sweep } = rig({});
    expect(await sweep.handler.settle(due('a', 7), NOW)).toBe('already_done');
    expect(calls).toEqual(['clear a 7']);
    expect(sweep.takeLag()).toBeUndefined();
  });

  it('keeps the marker due when credit-intake refuses the message', async () => {
    const { calls, sweep } = rig({ a: '2026-12-01T10:03:00.000Z' }, true);
    await expect(sweep.handler.settle(due('a'), NOW)).rejects.toMatchObject({
      code: 'unavailable',
    });
    expect(calls).toEqual(['notify a']);
  });
});
