/**
 * The gap lifecycle of a ledger-event source (docs/contract.md §18). A ledger event is an
 * increment, so a missing number may be money that never arrived: each open gap remembers when
 * it opened and when it was requested again, and numbers the producer declares lost are kept
 * under `waived` with the reason. Callbacks (§7) use `SequenceState` alone: their gaps stay
 * diagnostics.
 */
import { GAP_OVERDUE_FACTOR, MAX_REFETCH_NUMBERS, MAX_WAIVED } from '../../contract/gaps';
import {
  advanceSequence,
  EMPTY_SEQUENCE,
  type SequenceAdvance,
  type SequenceState,
} from './sequence';

export interface GapDetail {
  readonly number: number;
  /** ISO-8601: when the event that skipped this number was written. */
  readonly openedAt: string;
  /** ISO-8601: when the sweeper committed a re-fetch request naming it. */
  readonly refetchRequestedAt?: string;
}

export interface WaivedNumber {
  readonly number: number;
  readonly reason: string;
  readonly waivedAt: string;
}

/** A ledger-event source's sequence: `gapDetails` lists the numbers of `gaps`, in its order. */
export interface EventSourceState extends SequenceState {
  readonly gapDetails: readonly GapDetail[];
  /** The last MAX_WAIVED numbers waived, oldest first. */
  readonly waived: readonly WaivedNumber[];
}

export const EMPTY_EVENT_SOURCE: EventSourceState = {
  ...EMPTY_SEQUENCE,
  gapDetails: [],
  waived: [],
};

export interface EventSourceAdvance extends SequenceAdvance {
  readonly state: EventSourceState;
}

/** `advanceSequence` with the details carried forward; new gaps open at `at`. */
export function advanceEventSource(
  state: EventSourceState,
  sequence: number,
  at: string,
): EventSourceAdvance {
  const advance = advanceSequence(state, sequence);
  if (advance.position === 'stale') return { ...advance, state };
  const known = new Map(state.gapDetails.map((detail) => [detail.number, detail]));
  const gapDetails = advance.state.gaps.map(
    (number) => known.get(number) ?? { number, openedAt: at },
  );
  return { ...advance, state: { ...advance.state, gapDetails, waived: state.waived } };
}

export interface WaiverResult {
  readonly state: EventSourceState;
  /** Open gaps the waiver closed, ascending. */
  readonly waived: readonly number[];
  /** Numbers that were not open (listed) gaps: ignored. */
  readonly ignored: readonly number[];
}

/** Removes the open gaps among `numbers` and lists them under `waived` with the reason. */
export function waiveGaps(
  state: EventSourceState,
  numbers: readonly number[],
  reason: string,
  at: string,
): WaiverResult {
  const open = new Set(state.gaps);
  const asked = [...new Set(numbers)].sort((a, b) => a - b);
  const waived = asked.filter((n) => open.has(n));
  const ignored = asked.filter((n) => !open.has(n));
  if (waived.length === 0) return { state, waived, ignored };
  const closed = new Set(waived);
  const entries = waived.map((number) => ({ number, reason, waivedAt: at }));
  return {
    state: {
      ...state,
      gaps: state.gaps.filter((n) => !closed.has(n)),
      gapDetails: state.gapDetails.filter((d) => !closed.has(d.number)),
      waived: [...state.waived, ...entries].slice(-MAX_WAIVED),
    },
    waived,
    ignored,
  };
}

/** Epoch ms at which a gap is due: its re-fetch, or once requested, its overdue alarm. */
export function gapDueAt(detail: GapDetail, refetchAfterSeconds: number): number {
  const factor = detail.refetchRequestedAt === undefined ? 1 : GAP_OVERDUE_FACTOR;
  return Date.parse(detail.openedAt) + factor * refetchAfterSeconds * 1000;
}

/** When the source's item is next due for the sweeper; undefined without open gaps. */
export function sourceDueAt(
  state: EventSourceState,
  refetchAfterSeconds: number,
): number | undefined {
  let due: number | undefined;
  for (const detail of state.gapDetails) {
    const at = gapDueAt(detail, refetchAfterSeconds);
    if (due === undefined || at < due) due = at;
  }
  return due;
}

/** Open gaps not yet requested and open for at least `refetchAfterSeconds` at `now`. */
export function gapsToRequest(
  state: EventSourceState,
  now: Date,
  refetchAfterSeconds: number,
): GapDetail[] {
  return state.gapDetails
    .filter(
      (d) =>
        d.refetchRequestedAt === undefined && gapDueAt(d, refetchAfterSeconds) <= now.getTime(),
    )
    .slice(0, MAX_REFETCH_NUMBERS);
}

/** Gaps open longer than GAP_OVERDUE_FACTOR × `refetchAfterSeconds` at `now`. */
export function overdueGaps(
  state: EventSourceState,
  now: Date,
  refetchAfterSeconds: number,
): number {
  const limit = now.getTime() - GAP_OVERDUE_FACTOR * refetchAfterSeconds * 1000;
  return state.gapDetails.filter((d) => Date.parse(d.openedAt) <= limit).length;
}

/** The state after a re-fetch request for `numbers` was committed at `at`. */
export function markRequested(
  state: EventSourceState,
  numbers: readonly number[],
  at: string,
): EventSourceState {
  const asked = new Set(numbers);
  return {
    ...state,
    gapDetails: state.gapDetails.map((d) =>
      asked.has(d.number) ? { ...d, refetchRequestedAt: at } : d,
    ),
  };
}
