import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  advanceEventSource,
  EMPTY_EVENT_SOURCE,
  type EventSourceState,
  gapsToRequest,
  markRequested,
  overdueGaps,
  sourceDueAt,
  waiveGaps,
} from '../../../../functions/domain/gaps/source-state';

const T0 = Date.parse('2026-12-01T10:00:00.000Z');
const iso = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();
const after = 300;

/** Events `numbers` written one second apart. */
const run = (numbers: number[]): EventSourceState =>
  numbers.reduce((state, n, i) => advanceEventSource(state, n, iso(i)).state, EMPTY_EVENT_SOURCE);

describe('gap details (docs/contract.md §18)', () => {
  it('keeps one detail per gap, in order, opened when the skipping event was written', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 30 }), (numbers) => {
        const state = run(numbers);
        expect(state.gapDetails.map((d) => d.number)).toEqual(state.gaps);
        for (const detail of state.gapDetails) {
          // Opened by the first event above it, at that event's time.
          const opener = numbers.findIndex((n) => n > detail.number);
          expect(detail.openedAt).toBe(iso(opener));
        }
      }),
    );
  });

  it('carries requested times forward and drops a gap when it arrives', () => {
    const requested = markRequested(run([1, 4]), [2], iso(400));
    const next = advanceEventSource(requested, 3, iso(500)).state;
    expect(next.gapDetails).toEqual([
      { number: 2, openedAt: iso(1), refetchRequestedAt: iso(400) },
    ]);
  });

  it('is due at openedAt + after, then once requested at openedAt + 12 × after', () => {
    const state = run([1, 3]);
    expect(sourceDueAt(state, after)).toBe(T0 + 1000 + after * 1000);
    expect(gapsToRequest(state, new Date(T0 + 1000 + after * 1000 - 1), after)).toEqual([]);
    expect(gapsToRequest(state, new Date(T0 + 1000 + after * 1000), after)).toHaveLength(1);
    const requested = markRequested(state, [2], iso(301));
    expect(gapsToRequest(requested, new Date(T0 + 10_000_000), after)).toEqual([]);
    expect(sourceDueAt(requested, after)).toBe(T0 + 1000 + 12 * after * 1000);
    expect(overdueGaps(requested, new Date(T0 + 1000 + 12 * after * 1000 - 1), after)).toBe(0);
    expect(overdueGaps(requested, new Date(T0 + 1000 + 12 * after * 1000), after)).toBe(1);
    expect(sourceDueAt(EMPTY_EVENT_SOURCE, after)).toBeUndefined();
  });

  it('waives open gaps only, keeps the last 1,000 waived, ignores the rest', () => {
    const state = run([1, 6]);
    const result = waiveGaps(state, [5, 3, 3, 9, 1], 'voided', iso(9));
    expect(result.waived).toEqual([3, 5]);
    expect(result.ignored).toEqual([1, 9]);
    expect(result.state.gaps).toEqual([2, 4]);
    expect(result.state.gapDetails.map((d) => d.number)).toEqual([2, 4]);
    expect(result.state.waived).toEqual([
      { number: 3, reason: 'voided', waivedAt: iso(9) },
      { number: 5, reason: 'voided', waivedAt: iso(9) },
    ]);
    expect(waiveGaps(state, [7], 'x', iso(9)).state).toBe(state);
    const many = run([1, 1500]);
    const first = waiveGaps(many, many.gaps.slice(0, 600), 'a', iso(1)).state;
    const second = waiveGaps(first, first.gaps.slice(0, 600), 'b', iso(2)).state;
    expect(second.waived).toHaveLength(1000);
    // The ranges refilled the list (§30): the second waiver took 602…1201, 1,200 in all.
    expect(second.waived[0]?.number).toBe(202);
    expect(second.waived.at(-1)?.reason).toBe('b');
  });
});

describe('gaps beyond the 1,000 listed, kept as ranges (docs/contract.md §30)', () => {
  const jumped = () => run([1, 1503]);

  it('keeps the numbers past the list as a range and clears gapsTruncated as the list refills', () => {
    const state = jumped();
    expect(state.gaps).toHaveLength(1000);
    expect(state.gapsTruncated).toBe(true);
    expect(state.gapRanges).toEqual([{ from: 1002, to: 1502, openedAt: iso(1) }]);
    const waived = waiveGaps(state, state.gaps, 'lost', iso(5)).state;
    expect(waived.gaps[0]).toBe(1002);
    expect(waived.gaps.at(-1)).toBe(1502);
    expect(waived.gapDetails.every((d) => d.openedAt === iso(1))).toBe(true);
    expect(waived.gapsTruncated).toBe(false);
    expect(waived.gapRanges).toEqual([]);
    // A listed gap that arrives makes room too: the lowest ranged number moves into the list.
    const filled = advanceEventSource(state, 2, iso(6)).state;
    expect(filled.gaps.at(-1)).toBe(1002);
    expect(filled.gapRanges).toEqual([{ from: 1003, to: 1502, openedAt: iso(1) }]);
  });

  it('waives a number in a range and fills one that arrives', () => {
    const result = waiveGaps(jumped(), [1400], 'voided', iso(5));
    expect(result.waived).toEqual([1400]);
    expect(result.ignored).toEqual([]);
    expect(result.state.gapRanges).toEqual([
      { from: 1002, to: 1399, openedAt: iso(1) },
      { from: 1401, to: 1502, openedAt: iso(1) },
    ]);
    const arrived = advanceEventSource(result.state, 1450, iso(6));
    expect(arrived.position).toBe('gap_filled');
    expect(arrived.state.gapRanges).toEqual([
      { from: 1002, to: 1399, openedAt: iso(1) },
      { from: 1401, to: 1449, openedAt: iso(1) },
      { from: 1451, to: 1502, openedAt: iso(1) },
    ]);
  });

  it('asks for ranged numbers once the listed ones are asked for', () => {
    const due = new Date(T0 + 1000 + after * 1000);
    const state = jumped();
    const first = gapsToRequest(state, due, after).map((d) => d.number);
    expect(first).toHaveLength(1000);
    const asked = markRequested(state, first, due.toISOString());
    const second = gapsToRequest(asked, due, after).map((d) => d.number);
    expect(second[0]).toBe(1002);
    expect(second.at(-1)).toBe(1502);
    const all = markRequested(asked, second, due.toISOString());
    expect(gapsToRequest(all, due, after)).toEqual([]);
    expect(all.gapRanges?.[0]).toMatchObject({ from: 1002, refetchRequestedAt: due.toISOString() });
  });

  it('opens a later missing number after a truncation: counted, asked for, overdue', () => {
    const state = advanceEventSource(jumped(), 1505, iso(10));
    expect(state.newGapCount).toBe(1);
    expect(state.newGaps).toEqual([1504]);
    expect(state.state.gapRanges?.at(-1)).toEqual({ from: 1504, to: 1504, openedAt: iso(10) });
    const late = new Date(T0 + 10_000 + 12 * after * 1000);
    expect(overdueGaps(state.state, late, after)).toBe(1502);
    const listedAsked = markRequested(state.state, state.state.gaps, iso(11));
    expect(gapsToRequest(listedAsked, late, after).map((d) => d.number)).toContain(1504);
  });

  it('stays within 1,000 ranges however a producer skips, never losing a missing number', () => {
    let state = jumped();
    for (let n = 1505; n < 1505 + 2 * 1020; n += 2)
      state = advanceEventSource(state, n, iso(n)).state;
    expect(state.gapRanges?.length).toBeLessThanOrEqual(1000);
    for (let n = 1504; n < 1505 + 2 * 1019; n += 2) {
      const inRange = (state.gapRanges ?? []).some((r) => r.from <= n && n <= r.to);
      expect(inRange || state.gaps.includes(n)).toBe(true);
    }
  }, 30_000);
});
