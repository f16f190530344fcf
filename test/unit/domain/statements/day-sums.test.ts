import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AccountRecord } from '../../../../functions/domain/accounts/model';
import type { AccountChange } from '../../../../functions/domain/journal/model';
import {
  addDays,
  dayOf,
  daySumsOf,
  daysComplete,
  effectiveTimeOf,
  planDayReads,
  settledReads,
  sumsBy,
} from '../../../../functions/domain/statements/days';
import {
  addMovements,
  type EffectiveRange,
  monthOf,
  NO_SUMS,
} from '../../../../functions/domain/statements/model';
import { fakeStatementPort, statementServiceOn } from '../../../support/fakes/ledger/statements';
import { recordingMetrics } from '../../../support/fakes/metrics';

/**
 * docs/contract.md §31, §36 as a model: effective balances and statements read whole days from
 * the day items the projector keeps and only partial days from the index — and are exactly the
 * plain sums over the entries, whether the day items are caught up or trail (then the month is
 * read entry by entry).
 */

const START = Date.parse('2026-03-01T00:00:00.000Z');
const DAY_MS = 86_400_000;
/** Now: noon of the 61st day; every change and instant is at or before it. */
const SPAN = 60.5 * DAY_MS;
const iso = (ms: number) => new Date(START + ms).toISOString();
// Day boundaries, and a millisecond before them, as often as anywhere else.
const instant = fc
  .oneof(
    fc.integer({ min: 0, max: SPAN }),
    fc
      .tuple(fc.integer({ min: 1, max: Math.floor(SPAN / DAY_MS) }), fc.constantFrom(0, -1))
      .map(([days, off]) => days * DAY_MS + off),
  )
  .map(iso);
const change: fc.Arbitrary<AccountChange> = fc
  .record({ at: instant, delta: fc.integer({ min: -500, max: 500 }), dated: fc.boolean() })
  .map(({ at, delta, dated }) => ({
    kind: delta >= 0 ? 'credit' : 'debit',
    balanceDelta: delta,
    availableDelta: delta,
    at,
    // A capture or a fee counts at its own time; an entry at its effectiveAt.
    ...(dated ? { effectiveAt: iso(Math.max(0, Date.parse(at) - START - 3 * DAY_MS)) } : {}),
  }));

const account = { id: 'a1', ownerId: 'alice', currency: 'EUR' } as AccountRecord;

const NOW = new Date(iso(SPAN));
const SETTLED = '2026-01-01T00:00:00.000Z';
const today = (change: AccountChange) => dayOf(effectiveTimeOf(change)) === dayOf(iso(SPAN));

/**
 * The account item's month sums, the index and the day items: of the first `projected` changes,
 * or (`lagToday`) of all but those effective today, as a projector behind the last updates
 * leaves them; last added to long ago, or just now for the days `fresh` picks.
 */
function books(
  changes: readonly AccountChange[],
  projected: number,
  fresh = (_: string) => false,
  lagToday = false,
) {
  const months = [...sumsBy(changes, monthOf)].map(([month, sums]) => ({ month, ...sums }));
  const added = changes.slice(0, projected).filter((c) => !(lagToday && today(c)));
  const days = daySumsOf(added).map((d) => ({
    ...d,
    addedAt: fresh(d.day) ? NOW.toISOString() : SETTLED,
  }));
  const index = changes
    .filter((c) => c.balanceDelta !== 0)
    .map((c) => ({
      effectiveAt: effectiveTimeOf(c),
      credit: Math.max(c.balanceDelta, 0),
      debit: Math.max(-c.balanceDelta, 0),
    }));
  const read: EffectiveRange[] = [];
  const port = fakeStatementPort({
    getEffectiveAccount: async () => ({
      account,
      history: { opening: 0, since: '1970-01-01T00:00:00.000Z', months },
    }),
    effectiveDays: async (_, month) => days.filter((d) => monthOf(d.day) === month),
    effectiveSums: async (_, range, split) => {
      read.push(range);
      const inside = index.filter((m) => m.effectiveAt >= range.from && m.effectiveAt < range.to);
      return addMovements(NO_SUMS, inside, split);
    },
    countEffective: async (_, range) =>
      index.filter((m) => m.effectiveAt >= range.from && m.effectiveAt < range.to).length,
  });
  const metrics = recordingMetrics();
  const service = statementServiceOn(port, { metrics });
  return { service, index, read, metrics };
}

const longest = (ranges: readonly EffectiveRange[]) =>
  Math.max(0, ...ranges.map((r) => Date.parse(r.to) - Date.parse(r.from)));

describe('day sums (docs/contract.md §31, §36)', () => {
  it('give the plain sums, reading at most a day of entries per read unless behind on older days', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(change, { maxLength: 40 }),
        fc.uniqueArray(instant, { minLength: 2, maxLength: 2 }),
        fc.nat(),
        fc.integer({ min: 1, max: 31 }),
        fc.boolean(),
        async (changes, pair, lag, freshDay, lagToday) => {
          const projected = changes.length - (lag % 3 === 0 ? lag % 4 : 0);
          const fresh = (day: string) => Number(day.slice(8)) === freshDay;
          const { service, index, read, metrics } = books(changes, projected, fresh, lagToday);
          const [from = '', to = ''] = [...pair].sort();
          const sum = (pick: (t: string) => boolean) =>
            index.filter((m) => pick(m.effectiveAt)).reduce((s, m) => s + m.credit - m.debit, 0);
          const balance = await service.effectiveBalance('alice', 'a1', from, NOW);
          expect(balance.balance).toBe(sum((t) => t <= from));
          const statement = await service.statement('alice', 'a1', { from, to, limit: 10 }, NOW);
          expect(statement.openingBalance).toBe(sum((t) => t < from));
          expect(statement.closingBalance).toBe(sum((t) => t < to));
          const inside = index.filter((m) => m.effectiveAt >= from && m.effectiveAt < to);
          expect(statement.totalCredits).toBe(inside.reduce((s, m) => s + m.credit, 0));
          // Behind on today's updates only (the usual lag): still a day at most per read.
          if (projected === changes.length) {
            expect(longest(read)).toBeLessThanOrEqual(DAY_MS);
            expect(metrics.counts.get('EffectiveMonthsReadWhole')).toBeUndefined();
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('plan whole days around the split and the partial days at either end', () => {
    const plan = planDayReads(
      { from: '2026-03-02T12:00:00.000Z', to: '2026-03-06T06:00:00.000Z' },
      '2026-03-04T08:00:00.000Z',
    );
    expect(plan.days).toEqual(['2026-03-03', '2026-03-05']);
    expect(plan.entries).toEqual([
      { from: '2026-03-02T12:00:00.000Z', to: '2026-03-03T00:00:00.000Z' },
      { from: '2026-03-04T00:00:00.000Z', to: '2026-03-05T00:00:00.000Z' },
      { from: '2026-03-06T00:00:00.000Z', to: '2026-03-06T06:00:00.000Z' },
    ]);
    // Two partial days and no whole one: each read from the index on its own (≤ a day each).
    expect(
      planDayReads(
        { from: '2026-03-01T00:00:00.001Z', to: '2026-03-02T23:59:59.999Z' },
        '2026-03-01T00:00:00.001Z',
      ).entries,
    ).toEqual([
      { from: '2026-03-01T00:00:00.001Z', to: '2026-03-02T00:00:00.000Z' },
      { from: '2026-03-02T00:00:00.000Z', to: '2026-03-02T23:59:59.999Z' },
    ]);
    const day = (d: string, credits: number, debits: number) => ({ day: d, credits, debits });
    const items = [day('2026-03-03', 5, 1), day('2026-03-05', 7, 2)].map((d) => ({
      ...d,
      entries: 2,
    }));
    expect(addDays(NO_SUMS, items, plan.days, '2026-03-04T08:00:00.000Z')).toEqual({
      before: 4,
      credits: 7,
      debits: 2,
    });
  });

  it('are trusted for a month only when they, with the index on recent days, count all of it', () => {
    const month = { month: '2026-03', credits: 6, debits: 1, entries: 3 };
    // The projector has not reached the 4th yet; the index counts its one entry.
    const days = [{ day: '2026-03-03', credits: 5, debits: 1, entries: 2 }];
    expect(daysComplete(month, days, new Map([['2026-03-04', 1]]))).toBe(true);
    expect(daysComplete(month, days, new Map())).toBe(false);
    expect(daysComplete({ ...month, entries: 2 }, days, new Map())).toBe(true);
    // Summed before the counts were written: nothing to hold the days to.
    expect(daysComplete({ month: '2026-03', credits: 5, debits: 1 }, days, new Map())).toBe(false);
  });
});

describe('a day the projector just added to (docs/contract.md §31)', () => {
  it('is read from the index, which may still trail it, until it has settled', () => {
    const reads = { days: ['2026-03-03', '2026-03-04'], entries: [] };
    const items = [
      { day: '2026-03-03', credits: 1, debits: 0, entries: 1, addedAt: '2026-03-10T00:00:00.000Z' },
      { day: '2026-03-04', credits: 1, debits: 0, entries: 1, addedAt: '2026-03-10T00:05:00.000Z' },
    ];
    expect(settledReads(reads, items, '2026-03-10T00:05:00.000Z')).toEqual({
      days: ['2026-03-03'],
      entries: [{ from: '2026-03-04T00:00:00.000Z', to: '2026-03-05T00:00:00.000Z' }],
    });
  });
});

/**
 * March 10th, noon: an effective balance of the 9th over a store whose month count, as the
 * account item is read one time after another, is `counts[i]` (the last one from then on), whose
 * 3rd of March holds `itemEntries`, and whose index counts `today[i]` entries today.
 */
async function balanceWhileWriting(counts: number[], itemEntries: number, today: number[]) {
  const month = (entries: number) => ({ month: '2026-03', credits: 40, debits: 0, entries });
  let accountReads = 0;
  let todayReads = 0;
  const read: EffectiveRange[] = [];
  const nth = (list: number[], i: number) => list[Math.min(i, list.length - 1)] ?? 0;
  const port = fakeStatementPort({
    getEffectiveAccount: async () => ({
      account,
      history: {
        opening: 0,
        since: '1970-01-01T00:00:00.000Z',
        months: [month(nth(counts, accountReads++))],
      },
    }),
    effectiveDays: async () => [
      { day: '2026-03-03', credits: 10, debits: 0, entries: itemEntries, addedAt: SETTLED },
    ],
    countEffective: async () => nth(today, todayReads++),
    effectiveSums: async (_, range) => {
      read.push(range);
      return NO_SUMS;
    },
  });
  const metrics = recordingMetrics();
  const service = statementServiceOn(port, { metrics });
  const now = new Date('2026-03-10T12:00:00.000Z');
  await service.effectiveBalance('alice', 'a1', '2026-03-09T12:00:00.000Z', now);
  return { read, accountReads, readWhole: metrics.counts.get('EffectiveMonthsReadWhole') };
}

describe('a write between the reads (docs/contract.md §26 "Day sums")', () => {
  it('is caught by reading the month count after the days: the month is read entry by entry', async () => {
    // A back-dated entry on the 3rd is not in its day item yet (1 of 2), and today's index
    // counts one entry more (2) than the account had when the balance began (3 in all).
    const { read, readWhole } = await balanceWhileWriting([3, 4], 1, [2]);
    expect(readWhole).toBe(1);
    // 1 + 2 = 3 entries was the first read's count; the later one says 4: not complete.
    expect(read).toContainEqual({
      from: '2026-03-01T00:00:00.000Z',
      to: '2026-03-09T12:00:00.001Z',
    });
  });

  it('is read once more: a write today between the reads leaves the days complete the next time', async () => {
    const { read, accountReads, readWhole } = await balanceWhileWriting([3, 4], 2, [1, 2]);
    expect(accountReads).toBe(3);
    expect(readWhole).toBeUndefined();
    expect(read).toEqual([{ from: '2026-03-09T00:00:00.000Z', to: '2026-03-09T12:00:00.001Z' }]);
  });
});
