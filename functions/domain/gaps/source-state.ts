/**
 * The gap lifecycle of a ledger-event source (docs/contract.md §18). A ledger event is an
 * increment, so a missing number may be money that never arrived: each open gap remembers when
 * it opened and when it was requested again, and numbers the producer declares lost are kept
 * under `waived` with the reason. Beyond the 1,000 listed numbers the missing ones are kept as
 * ranges (`gapRanges`, §30): they are asked for, can be waived, and refill the list as listed
 * gaps close. Callbacks (§7) use `SequenceState` alone: their gaps stay diagnostics.
 */
import {
  GAP_OVERDUE_FACTOR,
  GAP_OVERDUE_RECHECK_SECONDS,
  MAX_REFETCH_NUMBERS,
  MAX_WAIVED,
} from '../../contract/gaps';
import {
  cut,
  firstNumbers,
  type GapRun,
  holds,
  intervals,
  normalise,
  restyle,
  runSize,
  splitListed,
} from './gap-runs';
import {
  EMPTY_SEQUENCE,
  MAX_LISTED_GAPS,
  type SequencePosition,
  type SequenceState,
} from './sequence';

export type { GapRun } from './gap-runs';

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

/**
 * A ledger-event source's sequence: `gapDetails` lists the numbers of `gaps`, in its order;
 * `gapRanges` the missing numbers above them (`gapsTruncated` exactly when there are some).
 */
export interface EventSourceState extends SequenceState {
  readonly gapDetails: readonly GapDetail[];
  /** Absent: none (a state built before ranges existed). */
  readonly gapRanges?: readonly GapRun[];
  /** The last MAX_WAIVED numbers waived, oldest first. */
  readonly waived: readonly WaivedNumber[];
  /** ISO-8601: when the sweeper last counted this source's overdue gaps (§30). */
  readonly overdueCheckedAt?: string;
}

export const EMPTY_EVENT_SOURCE: EventSourceState = {
  ...EMPTY_SEQUENCE,
  gapDetails: [],
  gapRanges: [],
  waived: [],
};

export interface EventSourceAdvance {
  readonly state: EventSourceState;
  readonly position: SequencePosition;
  /** How many numbers became missing with this event (0 unless `ahead`). */
  readonly newGapCount: number;
  /** The first of them (at most 1,000), for the log. */
  readonly newGaps: readonly number[];
}

/** Every missing number of `state` as runs, ascending. */
export function gapRunsOf(state: EventSourceState): GapRun[] {
  return normalise([
    ...state.gapDetails.map((d) => ({ ...d, from: d.number, to: d.number })),
    ...(state.gapRanges ?? []),
  ]).map(({ from, to, openedAt, refetchRequestedAt }) =>
    refetchRequestedAt === undefined
      ? { from, to, openedAt }
      : { from, to, openedAt, refetchRequestedAt },
  );
}

/** `state` with its missing numbers `runs`: the lowest 1,000 listed, the rest ranges. */
function withRuns(state: EventSourceState, runs: readonly GapRun[]): EventSourceState {
  const { listed, ranges } = splitListed(normalise(runs), MAX_LISTED_GAPS);
  const gapDetails = listed.flatMap((run) =>
    Array.from({ length: runSize(run) }, (_, i) => {
      const number = run.from + i;
      return run.refetchRequestedAt === undefined
        ? { number, openedAt: run.openedAt }
        : { number, openedAt: run.openedAt, refetchRequestedAt: run.refetchRequestedAt };
    }),
  );
  return {
    ...state,
    gaps: gapDetails.map((d) => d.number),
    gapDetails,
    gapRanges: ranges,
    gapsTruncated: ranges.length > 0,
  };
}

/** Where `sequence` lands; the numbers it skips open at `at`, however many there are. */
export function advanceEventSource(
  state: EventSourceState,
  sequence: number,
  at: string,
): EventSourceAdvance {
  const runs = gapRunsOf(state);
  const ahead = sequence > state.lastSequence;
  if (!ahead && !holds(runs, sequence)) {
    return { state, position: 'stale', newGapCount: 0, newGaps: [] };
  }
  const missing = ahead ? sequence - state.lastSequence - 1 : 0;
  const opened: GapRun = { from: state.lastSequence + 1, to: sequence - 1, openedAt: at };
  // Ahead: the skipped numbers open; else the number fills its gap. One rebuild either way.
  const next = withRuns(
    { ...state, lastSequence: Math.max(sequence, state.lastSequence) },
    ahead ? [...runs, opened] : cut(runs, sequence, sequence),
  );
  const position = ahead ? (missing > 0 ? 'ahead' : 'next') : 'gap_filled';
  return {
    state: next,
    position,
    newGapCount: missing,
    newGaps: missing > 0 ? firstNumbers([opened], () => true, MAX_LISTED_GAPS) : [],
  };
}

export interface WaiverResult {
  readonly state: EventSourceState;
  /** Open gaps the waiver closed, ascending. */
  readonly waived: readonly number[];
  /** Numbers that were not open gaps (listed or in a range): ignored. */
  readonly ignored: readonly number[];
}

/** Removes the open gaps among `numbers` and lists them under `waived` with the reason. */
export function waiveGaps(
  state: EventSourceState,
  numbers: readonly number[],
  reason: string,
  at: string,
): WaiverResult {
  let runs = gapRunsOf(state);
  const asked = [...new Set(numbers)].sort((a, b) => a - b);
  const waived = asked.filter((n) => holds(runs, n));
  const ignored = asked.filter((n) => !holds(runs, n));
  if (waived.length === 0) return { state, waived, ignored };
  for (const [from, to] of intervals(waived)) runs = cut(runs, from, to);
  const entries = waived.map((number) => ({ number, reason, waivedAt: at }));
  return {
    state: withRuns({ ...state, waived: [...state.waived, ...entries].slice(-MAX_WAIVED) }, runs),
    waived,
    ignored,
  };
}

/**
 * Epoch ms at which a gap is due: its re-fetch; once requested, its overdue time; once
 * overdue and counted (`checkedAt`), GAP_OVERDUE_RECHECK_SECONDS after that count (§30: an
 * overdue gap leaves the head of the due index).
 */
export function gapDueAt(
  gap: Pick<GapRun, 'openedAt' | 'refetchRequestedAt'>,
  refetchAfterSeconds: number,
  checkedAt?: string,
): number {
  const opened = Date.parse(gap.openedAt);
  if (gap.refetchRequestedAt === undefined) return opened + refetchAfterSeconds * 1000;
  const overdueAt = opened + GAP_OVERDUE_FACTOR * refetchAfterSeconds * 1000;
  const checked = checkedAt === undefined ? Number.NaN : Date.parse(checkedAt);
  return checked >= overdueAt ? checked + GAP_OVERDUE_RECHECK_SECONDS * 1000 : overdueAt;
}

/** When the source's item is next due for the sweeper; undefined without open gaps. */
export function sourceDueAt(
  state: EventSourceState,
  refetchAfterSeconds: number,
): number | undefined {
  let due: number | undefined;
  for (const run of gapRunsOf(state)) {
    const at = gapDueAt(run, refetchAfterSeconds, state.overdueCheckedAt);
    if (due === undefined || at < due) due = at;
  }
  return due;
}

/** Open gaps (listed or ranged) not yet requested and open for `refetchAfterSeconds` at `now`. */
export function gapsToRequest(
  state: EventSourceState,
  now: Date,
  refetchAfterSeconds: number,
): GapDetail[] {
  const due = (run: GapRun) =>
    run.refetchRequestedAt === undefined && gapDueAt(run, refetchAfterSeconds) <= now.getTime();
  const runs = gapRunsOf(state);
  return firstNumbers(runs, due, MAX_REFETCH_NUMBERS).map((number) => ({
    number,
    openedAt: runs.find((run) => run.from <= number && number <= run.to)?.openedAt ?? '',
  }));
}

/** Gaps open longer than GAP_OVERDUE_FACTOR × `refetchAfterSeconds` at `now`, ranges included. */
export function overdueGaps(
  state: EventSourceState,
  now: Date,
  refetchAfterSeconds: number,
): number {
  const limit = now.getTime() - GAP_OVERDUE_FACTOR * refetchAfterSeconds * 1000;
  return gapRunsOf(state)
    .filter((run) => Date.parse(run.openedAt) <= limit)
    .reduce((sum, run) => sum + runSize(run), 0);
}

/** The state after a re-fetch request for `numbers` was committed at `at`. */
export function markRequested(
  state: EventSourceState,
  numbers: readonly number[],
  at: string,
): EventSourceState {
  let runs = gapRunsOf(state);
  for (const [from, to] of intervals(numbers)) {
    runs = restyle(runs, from, to, (run) => ({ ...run, refetchRequestedAt: at }));
  }
  return withRuns(state, runs);
}

/** The state after the sweeper counted its overdue gaps at `at`: due again a while later. */
export function markOverdueChecked(state: EventSourceState, at: string): EventSourceState {
  return { ...state, overdueCheckedAt: at };
}
