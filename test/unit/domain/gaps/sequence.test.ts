import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  advanceSequence,
  EMPTY_SEQUENCE,
  MAX_LISTED_GAPS,
  type SequenceState,
} from '../../../../functions/domain/gaps/sequence';

const run = (numbers: number[]): SequenceState =>
  numbers.reduce((state, n) => advanceSequence(state, n).state, EMPTY_SEQUENCE);

describe('advanceSequence', () => {
  it.each([
    { seen: [1], next: 2, position: 'next', gaps: [], newGaps: [] },
    { seen: [1], next: 4, position: 'ahead', gaps: [2, 3], newGaps: [2, 3] },
    { seen: [1, 4], next: 3, position: 'gap_filled', gaps: [2], newGaps: [] },
    { seen: [1, 4], next: 4, position: 'stale', gaps: [2, 3], newGaps: [] },
    { seen: [1, 4], next: 1, position: 'stale', gaps: [2, 3], newGaps: [] },
    { seen: [], next: 3, position: 'ahead', gaps: [1, 2], newGaps: [1, 2] },
  ])('after $seen, $next is $position', ({ seen, next, position, gaps, newGaps }) => {
    const advance = advanceSequence(run(seen), next);
    expect(advance.position).toBe(position);
    expect(advance.state.gaps).toEqual(gaps);
    expect(advance.newGaps).toEqual(newGaps);
  });

  it('lists exactly the missing numbers below the highest, in any arrival order', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 60 }), { minLength: 1 }), (arrivals) => {
        const state = run(arrivals);
        const highest = Math.max(...arrivals);
        const missing = Array.from({ length: highest }, (_, i) => i + 1).filter(
          (n) => !arrivals.includes(n),
        );
        expect(state).toEqual({ lastSequence: highest, gaps: missing, gapsTruncated: false });
      }),
    );
  });

  it('keeps the lowest 1,000 gaps and flags the rest', () => {
    const state = run([1, 5000]);
    expect(state.gaps).toHaveLength(MAX_LISTED_GAPS);
    expect(state.gaps[0]).toBe(2);
    expect(state.gaps.at(-1)).toBe(1001);
    expect(state.gapsTruncated).toBe(true);
    const filled = advanceSequence(state, 2);
    expect(filled.position).toBe('gap_filled');
    expect(filled.state.gapsTruncated).toBe(true);
    // A later jump must not list numbers above the unlisted ones (1002–4999 are still missing).
    const jumped = advanceSequence(filled.state, 5002).state;
    expect(jumped.gaps.at(-1)).toBe(1001);
    expect(jumped.gaps).toHaveLength(MAX_LISTED_GAPS - 1);
    expect(jumped).toMatchObject({ lastSequence: 5002, gapsTruncated: true });
  });
});
