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
  it('queues a stranded account again, postpones its marker and measures the lag', async () => {
    const { calls, sweep } = rig({ a: '2026-12-01T10:03:00.000Z', b: '2026-12-01T10:04:00.000Z' });
    expect(await sweep.handler.settle(due('a'), NOW)).toBe('settled');
    expect(await sweep.handler.settle(due('b'), NOW)).toBe('settled');
    expect(calls).toEqual([
      'notify a',
      'postpone a 2026-12-01T10:03:00.000Z 2026-12-01T10:06:00.000Z',
      'notify b',
      'postpone b 2026-12-01T10:04:00.000Z 2026-12-01T10:06:00.000Z',
    ]);
    expect(sweep.takeLag()).toBe(120);
    expect(sweep.takeLag()).toBeUndefined();
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
