/**
 * Per-stream sequence tracking (docs/contract.md §6, §7): a sequence never decides whether an event
 * applies; it only tells which numbers are still missing.
 */
export const MAX_LISTED_GAPS = 1000;

export interface SequenceState {
  readonly lastSequence: number;
  /** Ascending missing numbers below `lastSequence`, at most MAX_LISTED_GAPS (the lowest). */
  readonly gaps: readonly number[];
  /** More numbers are missing than `gaps` lists. */
  readonly gapsTruncated: boolean;
}

export const EMPTY_SEQUENCE: SequenceState = { lastSequence: 0, gaps: [], gapsTruncated: false };

export type SequencePosition = 'next' | 'ahead' | 'gap_filled' | 'stale';

export interface SequenceAdvance {
  readonly state: SequenceState;
  readonly position: SequencePosition;
  /** Numbers that became missing with this event (empty unless `ahead`). */
  readonly newGaps: readonly number[];
}

/** Where `sequence` lands relative to `state`, and the state after it. */
export function advanceSequence(state: SequenceState, sequence: number): SequenceAdvance {
  if (sequence > state.lastSequence) {
    // Once truncated, unlisted numbers lie below any new ones: appending would break "lowest".
    const room = state.gapsTruncated ? 0 : MAX_LISTED_GAPS - state.gaps.length;
    const missing = sequence - state.lastSequence - 1;
    const listed = Math.max(0, Math.min(missing, room));
    const newGaps = Array.from({ length: listed }, (_, i) => state.lastSequence + 1 + i);
    return {
      state: {
        lastSequence: sequence,
        gaps: [...state.gaps, ...newGaps],
        gapsTruncated: state.gapsTruncated || missing > listed,
      },
      position: missing > 0 ? 'ahead' : 'next',
      newGaps,
    };
  }
  if (state.gaps.includes(sequence)) {
    return {
      state: { ...state, gaps: state.gaps.filter((n) => n !== sequence) },
      position: 'gap_filled',
      newGaps: [],
    };
  }
  return { state, position: 'stale', newGaps: [] };
}
