import type { AccountChange } from '../journal/model';
import { DAY_MS } from '../shared/time';
import { type EffectiveRange, type MonthSums, monthOf, type SplitSums } from './model';

/**
 * Day sums (docs/contract.md §26 "Day sums", §31, §36): per account and day (UTC) of effective
 * time, the credits, debits and entries effective in it, kept by the journal projector in an
 * item of their own. A partial month of a statement or an effective balance then costs its
 * month's day items (at most 31, one read) and the entries of a few days, never a month of
 * entries. Day items are trusted for a month only when they, with the index's count of the days
 * the projector may not have reached, account for every entry the account item counts in the
 * month (`daysComplete`); else the month is read entry by entry.
 */

/** Credits, debits and entries effective in one day (`YYYY-MM-DD`, UTC). */
export interface DaySums {
  readonly day: string;
  readonly credits: number;
  readonly debits: number;
  readonly entries: number;
  /** When the projector last added to it (absent on sums not read from storage). */
  readonly addedAt?: string;
}

/**
 * When a change counts: its `effectiveAt` (every change with an entry carries it), else — a
 * change without an entry, or one described before effective dates — its own time.
 */
export const effectiveTimeOf = (change: AccountChange): string => change.effectiveAt ?? change.at;

export const dayOf = (instant: string): string => instant.slice(0, 10);
export const dayStart = (day: string): string => `${day}T00:00:00.000Z`;
const nextDayStart = (day: string): string =>
  new Date(Date.parse(dayStart(day)) + DAY_MS).toISOString();

/** What changes add to one period's sums (the `ADD` operands of a month, a day's item). */
export interface PeriodSums {
  credits: number;
  debits: number;
  entries: number;
}

/**
 * What changes of the balance add to the sums of each period `periodOf` names (a month, a day):
 * credits, debits, and one entry of the effective index per change. A change that moves only
 * `available` (a hold) is in none.
 */
export function sumsBy(
  changes: readonly AccountChange[],
  periodOf: (instant: string) => string,
): Map<string, PeriodSums> {
  const periods = new Map<string, PeriodSums>();
  for (const change of changes) {
    if (change.balanceDelta === 0) continue;
    const period = periodOf(effectiveTimeOf(change));
    const sums = periods.get(period) ?? { credits: 0, debits: 0, entries: 0 };
    if (change.balanceDelta > 0) sums.credits += change.balanceDelta;
    else sums.debits -= change.balanceDelta;
    sums.entries += 1;
    periods.set(period, sums);
  }
  return periods;
}

/** The day sums one account update adds, by day ascending. */
export function daySumsOf(changes: readonly AccountChange[]): DaySums[] {
  return [...sumsBy(changes, dayOf)]
    .map(([day, sums]) => ({ day, ...sums }))
    .sort((a, b) => a.day.localeCompare(b.day));
}

/**
 * Whether the month's day items, with the entries the index counts on `counted` days (the days
 * the projector may not have reached yet), account for every entry of the month (the count the
 * account item holds, read after them). Each is a lower bound of its day (items and index only
 * ever gain entries, each once) and the month's count, read later, at least their sum, so when
 * they are equal, every one is exact. Months summed before the counts were written: never.
 */
export function daysComplete(
  month: MonthSums,
  items: readonly DaySums[],
  counted: ReadonlyMap<string, number>,
): boolean {
  return month.entries !== undefined && entriesOf(month, items, counted) === month.entries;
}

/**
 * Whether they reach the month's count (they may exceed it: writes since it was read). Below it,
 * they cannot be complete however much later the month is read again: counts only grow.
 */
export function daysReach(
  month: MonthSums,
  items: readonly DaySums[],
  counted: ReadonlyMap<string, number>,
): boolean {
  return month.entries !== undefined && entriesOf(month, items, counted) >= month.entries;
}

/** The entries the items and the counted days hold in the month (NaN: an item of another). */
function entriesOf(
  month: MonthSums,
  items: readonly DaySums[],
  counted: ReadonlyMap<string, number>,
): number {
  let entries = 0;
  for (const [day, count] of counted) if (monthOf(day) === month.month) entries += count;
  for (const item of items) {
    if (monthOf(item.day) !== month.month) return Number.NaN;
    if (!counted.has(item.day)) entries += item.entries;
  }
  return entries;
}

/** The days (UTC) from `from` to `to`, both included, ascending. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = dayOf(from); day <= dayOf(to); day = dayOf(nextDayStart(day))) days.push(day);
  return days;
}

/** `[start, end)` of a day. */
export const dayRange = (day: string): EffectiveRange => ({
  from: dayStart(day),
  to: nextDayStart(day),
});

/** How a range inside one month is read: whole days from day items, the rest entry by entry. */
export interface DayReads {
  /** Days wholly inside the range and not cut by the split: summed from their day items. */
  readonly days: readonly string[];
  /** The partial days at either end, and the day the split falls inside: read from the index. */
  readonly entries: readonly EffectiveRange[];
}

const floorDay = (instant: string): string => dayStart(dayOf(instant));
const ceilDay = (instant: string): string =>
  floorDay(instant) === instant ? instant : nextDayStart(dayOf(instant));

/** The reads of `range` (inside one month) summed split at `split`. */
export function planDayReads(range: EffectiveRange, split: string): DayReads {
  const first = ceilDay(range.from);
  const end = floorDay(range.to);
  // Inside one day: nothing whole to take from day items.
  if (first > end) return { days: [], entries: [range] };
  const cut = split > first && split < end && floorDay(split) !== split ? dayOf(split) : undefined;
  const days: string[] = [];
  for (let start = first; start < end; start = nextDayStart(dayOf(start))) {
    if (dayOf(start) !== cut) days.push(dayOf(start));
  }
  const entries: EffectiveRange[] = [];
  if (range.from < first) entries.push({ from: range.from, to: first });
  if (cut !== undefined) entries.push(dayRange(cut));
  if (end < range.to) entries.push({ from: end, to: range.to });
  return { days, entries };
}

/**
 * `reads` with each day whose item was added to at or after `settledFrom`, and each of `counted`
 * (counted from the index, not from its item), read from the index instead (docs/contract.md
 * §26 "Day sums"): the index may still trail a day the projector just added to, and a
 * statement's entries and totals must agree; a day quiet since is one the index holds.
 */
export function settledReads(
  reads: DayReads,
  items: readonly DaySums[],
  settledFrom: string,
  counted: Iterable<string> = [],
): DayReads {
  const recent = new Set([
    ...counted,
    ...items.filter((i) => i.addedAt === undefined || i.addedAt >= settledFrom).map((i) => i.day),
  ]);
  const days = reads.days.filter((day) => !recent.has(day));
  const entries = [...reads.entries];
  for (const day of reads.days) {
    if (recent.has(day)) entries.push(dayRange(day));
  }
  return { days, entries };
}

/** `sums` plus the day items of `days`, each wholly before `split` or wholly from it on. */
export function addDays(
  sums: SplitSums,
  items: readonly DaySums[],
  days: readonly string[],
  split: string,
): SplitSums {
  const wanted = new Set(days);
  let { before, credits, debits } = sums;
  for (const item of items) {
    if (!wanted.has(item.day)) continue;
    if (nextDayStart(item.day) <= split) before += item.credits - item.debits;
    else {
      credits += item.credits;
      debits += item.debits;
    }
  }
  return { before, credits, debits };
}

/** The sum of split sums read part by part. */
export const plusSums = (a: SplitSums, b: SplitSums): SplitSums => ({
  before: a.before + b.before,
  credits: a.credits + b.credits,
  debits: a.debits + b.debits,
});
