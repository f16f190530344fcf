import { describe, expect, it } from 'vitest';
import {
  type Backoff,
  currentDeadline,
  DEFAULT_BACKOFF,
  LatencyEstimate,
  MOVED,
  nextPause,
  retryOptimistic,
  withDeadline,
} from '../../../../functions/domain/shared/retry';

/** A backoff on a clock the test moves; `random` 1 − ε gives the top of each jitter range. */
function clocked(extra: Partial<Backoff> = {}) {
  let now = 1_000_000;
  const backoff: Backoff = {
    ...DEFAULT_BACKOFF,
    random: () => 0.999_999,
    now: () => now,
    sleep: async (ms) => {
      now += ms;
    },
    ...extra,
  };
  return { backoff, advance: (ms: number) => (now += ms), now: () => now };
}

describe('nextPause: capped exponential backoff with full jitter', () => {
  it('doubles from the base up to the cap, jittered below the bound', () => {
    const { backoff } = clocked({ baseDelayMs: 10, maxDelayMs: 100, budgetMs: 1e9 });
    const start = backoff.now();
    expect([1, 2, 3, 4, 5, 6].map((n) => nextPause(backoff, n, start))).toEqual([
      9, 19, 39, 79, 99, 99,
    ]);
    const low = { ...backoff, random: () => 0 };
    expect(nextPause(low, 3, start)).toBe(0);
  });

  it('after a held item, centres the jitter on the bound: never under half of it (issue 50)', () => {
    const { backoff } = clocked({ baseDelayMs: 10, maxDelayMs: 100, budgetMs: 1e9 });
    const start = backoff.now();
    const pauses = (random: number) =>
      [1, 2, 3, 4, 5].map((n) =>
        nextPause({ ...backoff, random: () => random }, n, start, 'contended'),
      );
    expect(pauses(0)).toEqual([5, 10, 20, 40, 50]);
    expect(pauses(0.999_999)).toEqual([14, 29, 59, 119, 149]);
  });

  it('takes its base from the measured commit latency, above the floor and below the cap', () => {
    const latency = new LatencyEstimate(0.5);
    const { backoff } = clocked({ baseDelayMs: 5, maxDelayMs: 400, budgetMs: 1e9, latency });
    const start = backoff.now();
    expect(nextPause(backoff, 1, start)).toBe(4); // nothing measured yet: the floor
    latency.observe(40);
    expect(nextPause(backoff, 1, start)).toBe(39);
    latency.observe(20); // weighted mean: 30
    expect(latency.value).toBe(30);
    expect(nextPause(backoff, 2, start)).toBe(59);
    latency.observe(10_000);
    expect(nextPause(backoff, 1, start)).toBe(399);
  });

  it('ends when the next attempt would start past the budget', () => {
    const { backoff, advance } = clocked({ baseDelayMs: 100, maxDelayMs: 100, budgetMs: 1_000 });
    const start = backoff.now();
    advance(850);
    expect(nextPause(backoff, 1, start)).toBe(99);
    advance(60);
    expect(nextPause(backoff, 1, start)).toBeUndefined();
  });

  it('ends at the invocation deadline, whichever comes first', async () => {
    const { backoff } = clocked({ baseDelayMs: 100, maxDelayMs: 100, budgetMs: 60_000 });
    const start = backoff.now();
    expect(currentDeadline()).toBeUndefined();
    await withDeadline(start + 50, async () => {
      expect(currentDeadline()).toBe(start + 50);
      expect(nextPause(backoff, 1, start)).toBeUndefined();
    });
    await withDeadline(start + 500, async () => {
      // Carried through awaits: the deadline is the invocation's, not the call stack's.
      await new Promise((resolve) => setTimeout(resolve, 1));
      expect(nextPause(backoff, 1, start)).toBe(99);
    });
  });

  it('ends after maxAttempts whatever the time', () => {
    const { backoff } = clocked({ maxAttempts: 3, budgetMs: 1e9 });
    expect(nextPause(backoff, 2, backoff.now())).toBeDefined();
    expect(nextPause(backoff, 3, backoff.now())).toBeUndefined();
  });
});

describe('retryOptimistic', () => {
  it('retries while the write reports MOVED, then answers what the attempt returned', async () => {
    const { backoff } = clocked();
    let attempts = 0;
    const result = await retryOptimistic(
      backoff,
      async () => (++attempts < 4 ? MOVED : 'done'),
      () => new Error('exhausted'),
    );
    expect([result, attempts]).toEqual(['done', 4]);
  });

  it('gives up within its time budget, however many attempts that allows', async () => {
    const { backoff, now } = clocked({ budgetMs: 2_000 });
    const start = now();
    let attempts = 0;
    await expect(
      retryOptimistic(
        backoff,
        async () => {
          attempts++;
          return MOVED;
        },
        () => new Error('kept moving'),
      ),
    ).rejects.toThrow('kept moving');
    expect(now() - start).toBeLessThanOrEqual(2_000);
    expect(attempts).toBeGreaterThan(5);
  });
});
