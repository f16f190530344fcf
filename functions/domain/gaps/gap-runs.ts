/**
 * The missing numbers of a ledger-event source as runs (docs/contract.md §18, §30): consecutive
 * numbers that opened together and were requested together are one `{ from, to, … }`, so a
 * jump of a million numbers costs one run, not a million entries. The first
 * MAX_LISTED_GAPS numbers are listed one by one (`gaps`, `gapDetails`); the rest stay ranges.
 */
import { MAX_GAP_RANGES, MAX_REFETCH_NUMBERS } from '../../contract/gaps';

export interface GapRun {
  readonly from: number;
  readonly to: number;
  /** ISO-8601: when the event that skipped these numbers was written. */
  readonly openedAt: string;
  /** ISO-8601: when the sweeper committed a re-fetch request naming them. */
  readonly refetchRequestedAt?: string;
}

export const runSize = (run: GapRun): number => run.to - run.from + 1;

const sameFields = (a: GapRun, b: GapRun) =>
  a.openedAt === b.openedAt && a.refetchRequestedAt === b.refetchRequestedAt;

/** Ascending runs with neighbours merged where they touch and share their fields. */
export function normalise(runs: readonly GapRun[]): GapRun[] {
  const out: GapRun[] = [];
  for (const run of [...runs].sort((a, b) => a.from - b.from)) {
    if (run.to < run.from) continue;
    const last = out.at(-1);
    if (last && last.to + 1 === run.from && sameFields(last, run)) {
      out[out.length - 1] = { ...last, to: run.to };
    } else {
      out.push(run);
    }
  }
  return out;
}

/** Whether `n` is missing. */
export const holds = (runs: readonly GapRun[], n: number): boolean =>
  runs.some((run) => run.from <= n && n <= run.to);

/** The runs without the numbers in [from, to]. */
export function cut(runs: readonly GapRun[], from: number, to: number): GapRun[] {
  return runs.flatMap((run) => {
    if (run.to < from || run.from > to) return [run];
    const parts: GapRun[] = [];
    if (run.from < from) parts.push({ ...run, to: from - 1 });
    if (run.to > to) parts.push({ ...run, from: to + 1 });
    return parts;
  });
}

/** The runs with `change` applied to the numbers in [from, to] (split where needed). */
export function restyle(
  runs: readonly GapRun[],
  from: number,
  to: number,
  change: (run: GapRun) => GapRun,
): GapRun[] {
  return runs.flatMap((run) => {
    if (run.to < from || run.from > to) return [run];
    const parts: GapRun[] = [];
    if (run.from < from) parts.push({ ...run, to: from - 1 });
    parts.push(change({ ...run, from: Math.max(run.from, from), to: Math.min(run.to, to) }));
    if (run.to > to) parts.push({ ...run, from: to + 1 });
    return parts;
  });
}

/** Sorted distinct numbers as consecutive intervals [from, to]. */
export function intervals(numbers: readonly number[]): [number, number][] {
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  const out: [number, number][] = [];
  for (const n of sorted) {
    const last = out.at(-1);
    if (last && last[1] + 1 === n) last[1] = n;
    else out.push([n, n]);
  }
  return out;
}

/** The first `limit` numbers of the runs that `keep` accepts, ascending. */
export function firstNumbers(
  runs: readonly GapRun[],
  keep: (run: GapRun) => boolean,
  limit = MAX_REFETCH_NUMBERS,
): number[] {
  const out: number[] = [];
  for (const run of runs) {
    if (!keep(run)) continue;
    for (let n = run.from; n <= run.to && out.length < limit; n++) out.push(n);
    if (out.length >= limit) break;
  }
  return out;
}

/**
 * The runs split at `listed` numbers: the listed part and the ranges beyond it. More than
 * MAX_GAP_RANGES ranges are merged where they lie closest (the numbers between them count as
 * missing: a re-fetch names them and a producer re-sends or waives them; none is ever lost).
 */
export function splitListed(
  runs: readonly GapRun[],
  listed: number,
): { listed: GapRun[]; ranges: GapRun[] } {
  const head: GapRun[] = [];
  const tail: GapRun[] = [];
  let room = listed;
  for (const run of runs) {
    if (room <= 0) tail.push(run);
    else if (runSize(run) <= room) {
      head.push(run);
      room -= runSize(run);
    } else {
      head.push({ ...run, to: run.from + room - 1 });
      tail.push({ ...run, from: run.from + room });
      room = 0;
    }
  }
  return { listed: head, ranges: boundRanges(tail) };
}

function boundRanges(ranges: GapRun[]): GapRun[] {
  const out = [...ranges];
  while (out.length > MAX_GAP_RANGES) {
    let at = 0;
    for (let i = 1; i < out.length - 1; i++) {
      const gap = (r: number) => (out[r + 1]?.from ?? 0) - (out[r]?.to ?? 0);
      if (gap(i) < gap(at)) at = i;
    }
    const [a, b] = [out[at], out[at + 1]];
    if (!a || !b) break;
    const earlier = Date.parse(a.openedAt) <= Date.parse(b.openedAt) ? a : b;
    // Unrequested wins: the merged range is asked for again rather than never.
    const requested =
      a.refetchRequestedAt !== undefined && b.refetchRequestedAt !== undefined
        ? { refetchRequestedAt: earlier.refetchRequestedAt ?? a.refetchRequestedAt }
        : {};
    out.splice(at, 2, { from: a.from, to: b.to, openedAt: earlier.openedAt, ...requested });
  }
  return out;
}
