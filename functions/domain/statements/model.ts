/**
 * Statements and effective balances (docs/contract.md §26), as pure arithmetic over what the
 * store keeps: per account, the credits and debits effective in each calendar month (UTC),
 * plus the entries of at most two partial months read from the effective-time index. A window
 * therefore costs its own entries, at most two months of them, and one number per month of the
 * account's age — never its whole history.
 */

/** Credits and debits effective in one month (`YYYY-MM`, UTC). */
export interface MonthSums {
  readonly month: string;
  readonly credits: number;
  readonly debits: number;
  /** Entries effective in it, written with the sums (§31); absent for months summed before. */
  readonly entries?: number;
}

/** An account's effective history as its account item holds it. */
export interface EffectiveHistory {
  /** What the account held before its first dated change (0 for an account created with them). */
  readonly opening: number;
  /** From this instant on, the history is complete (an older account: its first dated change). */
  readonly since: string;
  /** Ascending by month. */
  readonly months: readonly MonthSums[];
}

/** One entry as a statement sums it: its effective time and which way it moved the balance. */
export interface EffectiveMovement {
  readonly effectiveAt: string;
  readonly credit: number;
  readonly debit: number;
}

/**
 * Index entries summed as they are read, split at an instant: what is effective before it opens
 * the window, the rest is the window's. A statement keeps these three numbers, never the entries.
 */
export interface SplitSums {
  readonly before: number;
  readonly credits: number;
  readonly debits: number;
}

export const NO_SUMS: SplitSums = { before: 0, credits: 0, debits: 0 };

/** `sums` plus `movements`, each before `split` or from it on. */
export function addMovements(
  sums: SplitSums,
  movements: readonly EffectiveMovement[],
  split: string,
): SplitSums {
  let { before, credits, debits } = sums;
  for (const movement of movements) {
    if (movement.effectiveAt < split) before += movement.credit - movement.debit;
    else {
      credits += movement.credit;
      debits += movement.debit;
    }
  }
  return { before, credits, debits };
}

/** `[from, to)` of effective time, ISO 8601 UTC with milliseconds. */
export interface EffectiveRange {
  readonly from: string;
  readonly to: string;
}

/** What a statement of `[from, to)` reads from the index, and which months it takes whole. */
export interface StatementPlan {
  /** From the start of `from`'s month: its entries before `from` open, the rest are the window's. */
  readonly head: EffectiveRange;
  /** The partial month `to` falls in, when the window reaches past `from`'s month. */
  readonly tail?: EffectiveRange;
  /** Months wholly inside the window, between head and tail: their sums, no entries. */
  readonly fullMonths: readonly string[];
}

export interface StatementTotals {
  readonly openingBalance: number;
  readonly totalCredits: number;
  readonly totalDebits: number;
  readonly closingBalance: number;
}

export const monthOf = (instant: string): string => instant.slice(0, 7);
export const monthStart = (month: string): string => `${month}-01T00:00:00.000Z`;

export function nextMonth(month: string): string {
  const [year, m] = month.split('-').map(Number);
  if (year === undefined || m === undefined) throw new Error(`not a month: ${month}`);
  return m === 12 ? `${year + 1}-01` : `${year}-${String(m + 1).padStart(2, '0')}`;
}

const earlier = (a: string, b: string): string => (a < b ? a : b);
const later = (a: string, b: string): string => (a > b ? a : b);

/** The ranges and months a statement of `[from, to)` needs (from < to, both UTC ISO). */
export function planStatement(from: string, to: string): StatementPlan {
  const fromMonth = monthOf(from);
  const headEnd = earlier(to, monthStart(nextMonth(fromMonth)));
  const head = { from: monthStart(fromMonth), to: headEnd };
  const tailStart = later(monthStart(monthOf(to)), headEnd);
  const tail = tailStart < to ? { from: tailStart, to } : undefined;
  const fullMonths: string[] = [];
  for (let month = monthOf(headEnd); monthStart(month) < tailStart; month = nextMonth(month)) {
    if (monthStart(month) >= headEnd) fullMonths.push(month);
  }
  return { head, ...(tail ? { tail } : {}), fullMonths };
}

/**
 * Opening, totals and closing of `[from, to)` from the account's history and the entries of
 * the plan's head and tail, summed and split at `from` as read (`addMovements`): opening = what the account held before its dated history + every
 * month before `from`'s + the head's entries before `from`; the window = the rest of the head,
 * the full months and the tail. closing = opening + credits − debits, always.
 */
export function statementTotals(
  history: EffectiveHistory,
  plan: StatementPlan,
  from: string,
  read: readonly SplitSums[],
): StatementTotals {
  const fromMonth = monthOf(from);
  const full = new Set(plan.fullMonths);
  let opening = history.opening;
  let credits = 0;
  let debits = 0;
  for (const sums of history.months) {
    if (sums.month < fromMonth) opening += sums.credits - sums.debits;
    else if (full.has(sums.month)) {
      credits += sums.credits;
      debits += sums.debits;
    }
  }
  for (const sums of read) {
    opening += sums.before;
    credits += sums.credits;
    debits += sums.debits;
  }
  return {
    openingBalance: opening,
    totalCredits: credits,
    totalDebits: debits,
    closingBalance: opening + credits - debits,
  };
}

/** The instant just after `at` (millisecond precision): "effectiveAt ≤ at" is "< this". */
export const justAfter = (at: string): string => new Date(new Date(at).getTime() + 1).toISOString();
