import { describe, expect, it } from 'vitest';
import { FULL_CHUNK } from '../../../bench/hot/model';
import { hotVerdicts, roundCeiling } from '../../../bench/hot/report';
import { HOT_SIDES, type HotResults } from '../../../bench/hot/run';
import type { EventsRound, HttpRound } from '../../../bench/hot/scenarios';
import { spread } from '../../../bench/stats';
import { verdictLine } from '../../../bench/verdicts';

const events = (eventsPerSecond: number, transactionsPerEvent: number, holdMs: number) =>
  ({
    eventsPerSecond,
    transactionsPerEvent,
    holdMs,
    conflictsPerEvent: 0,
    throttledPerEvent: 0,
    redeliveries: 0,
  }) satisfies EventsRound;

const http = (perSecond: number, holdMs: number) =>
  ({
    perSecond,
    holdMs,
    p50Ms: 1,
    p99Ms: 1,
    callsPerCredit: 1,
    retryAnswersPerCredit: 0,
    busiestCommitsPerCredit: 1,
  }) satisfies HttpRound;

/** Account items of 413 B (one record: 1 KB), 1,476 B (ten: 2 KB), 2,302 B (a full chunk: 3 KB). */
const hot: HotResults = {
  writeUnitsPerSecond: 250,
  concurrency: 5,
  eventsPerRound: 600,
  httpPerRound: 240,
  events: [
    {
      producers: 1,
      bySide: {
        [HOT_SIDES.today]: [events(62.5, 1, 7), events(50, 1, 8)],
        // 25 records a transaction, each holding the account 80 ms, then 100 ms.
        [HOT_SIDES.batched100]: [events(250, 0.04, 80), events(200, 0.04, 100)],
      },
    },
  ],
  http: {
    [HOT_SIDES.httpToday]: [http(80, 7), http(50, 9)],
    [HOT_SIDES.httpOurs]: [http(90, 10), http(60, 20)],
  },
  costs: [
    { command: 'one', transactions: 1, items: 5, largestBytes: 413, writeUnits: 10, events: 1 },
    { command: 'ten', transactions: 1, items: 32, largestBytes: 1476, writeUnits: 66, events: 10 },
    {
      command: 'full',
      transactions: 1,
      items: 99,
      largestBytes: 2302,
      writeUnits: 200,
      events: FULL_CHUNK,
    },
  ],
};

describe('the one-account ceiling (bench/hot/report.ts)', () => {
  it('is records per transaction at the measured hold, or the write budget when that binds', () => {
    // 25 records × 1000 / 80 ms; the 2 KB account item allows 250 / 2 / 2 = 62.5 a second.
    expect(roundCeiling(hot, { transactionsPerEvent: 0.04, holdMs: 80 })).toBeCloseTo(312.5);
    // 1 ms holds: the budget binds, 62.5 transactions a second of 25 records.
    expect(roundCeiling(hot, { transactionsPerEvent: 0.04, holdMs: 1 })).toBeCloseTo(1562.5);
    // One record a transaction, 10 ms: 100 a second (the 1 KB item allows 125).
    expect(roundCeiling(hot, { transactionsPerEvent: 1, holdMs: 10 })).toBeCloseTo(100);
  });

  it('holds each round of the measured side at its ceiling against the same round of today', () => {
    const [batched, credits] = hotVerdicts(hot);
    expect(batched?.ceiling).toEqual([312.5, 250]);
    expect(batched?.theirs).toEqual([62.5, 50]);
    // HTTP: one credit per transaction at the hold of each round of the converging side.
    expect(credits?.ceiling).toEqual([100, 50]);
    expect(credits?.theirs).toEqual([80, 50]);
  });

  it('prints the ceiling beside the verdict it bounds', () => {
    const line = verdictLine({
      measure: 'one account',
      ratio: spread([2, 3, 4]),
      target: '≥ 6',
      pass: false,
      ceiling: spread([4, 5, 6]),
    });
    expect(line).toContain('MISS');
    expect(line).toContain('at most 5.00 (4.00–6.00)× on this layer');
  });
});
