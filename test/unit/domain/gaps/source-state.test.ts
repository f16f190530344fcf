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
    expect(second.waived[0]?.number).toBe(2);
    expect(second.waived.at(-1)?.reason).toBe('b');
  });
});
