import { DEFAULT_DAY_SUMS_SETTLE_SECONDS } from '../../contract/effective-time';
import { METRICS, type MetricsPort } from '../shared/metrics';
import {
  addDays,
  type DaySums,
  dayRange,
  daysBetween,
  daysComplete,
  daysReach,
  planDayReads,
  plusSums,
  settledReads,
} from './days';
import {
  type EffectiveHistory,
  type EffectiveRange,
  type MonthSums,
  monthOf,
  NO_SUMS,
  type SplitSums,
} from './model';
import type { StatementPort } from './port';

/** Reads of an edge month's day sums (a write between the reads spoils one) before its entries. */
const DAY_SUMS_ATTEMPTS = 2;

/**
 * The entries of a range inside one month, summed at bounded cost (docs/contract.md §26 "Day
 * sums"): the statements' and effective balances' reads of their edge months.
 */
export class EffectiveReads {
  private readonly settleMs: number;

  constructor(
    private readonly port: StatementPort,
    settleSeconds = DEFAULT_DAY_SUMS_SETTLE_SECONDS,
    private readonly metrics?: MetricsPort,
  ) {
    this.settleMs = settleSeconds * 1000;
  }

  /**
   * The entries effective in `range` (inside one month) summed, split at `split`, at bounded
   * cost (docs/contract.md §26 "Day sums"): whole days from the month's day items, once those,
   * with the index's count of the days the projector may not have reached (the settle window up
   * to now), account for every entry the account item counts in the month; the partial days,
   * those recent days and days added to within the settle window from the index. A month they do
   * not account for (an update in flight to an older day, a month summed before day sums) is
   * read entry by entry.
   */
  async rangeSums(
    accountId: string,
    history: EffectiveHistory,
    range: EffectiveRange,
    split: string,
    now: Date,
  ): Promise<SplitSums> {
    const reads = planDayReads(range, split);
    const month = history.months.find((m) => m.month === monthOf(range.from));
    // A month without sums has no entry in the index: they are written in one transaction.
    if (!month) return NO_SUMS;
    if (reads.days.length === 0) return this.entrySums(accountId, reads.entries, split);
    const settledFrom = new Date(now.getTime() - this.settleMs).toISOString();
    // The days the projector may not have reached: counted from the index, not their items.
    const recent = daysBetween(settledFrom, now.toISOString()).filter(
      (day) => monthOf(day) === month.month,
    );
    let counted = month;
    for (let attempt = 1; attempt <= DAY_SUMS_ATTEMPTS; attempt++) {
      const read = await this.completeDays(accountId, counted, recent);
      if (read.days) {
        const settled = settledReads(reads, read.days, settledFrom, recent);
        const sums = await this.entrySums(accountId, settled.entries, split);
        return addDays(sums, read.days, settled.days, split);
      }
      // Again only if a write came between the reads; else the projector is behind.
      if (!read.later) break;
      counted = read.later;
    }
    this.metrics?.count(METRICS.monthsReadWhole);
    return this.port.effectiveSums(accountId, range, split);
  }

  /**
   * The month's day items when they are complete: read with the index's count of `recent`
   * days, then, only if they reach the month's count as `month` had it (counts only grow), the
   * account item's count again — read after them, so it is at least what they saw, and equal
   * only if each of them is exact (`daysComplete`). Else, when a write came between the reads,
   * the month as read then (`later`) to try again with; none when the projector is behind.
   */
  private async completeDays(
    accountId: string,
    month: MonthSums,
    recent: readonly string[],
  ): Promise<{ readonly days?: DaySums[]; readonly later?: MonthSums }> {
    const [days, counts] = await Promise.all([
      this.port.effectiveDays(accountId, month.month),
      Promise.all(recent.map((day) => this.port.countEffective(accountId, dayRange(day)))),
    ]);
    const counted = new Map(recent.map((day, i) => [day, counts[i] ?? 0]));
    if (!daysReach(month, days, counted)) return {};
    const after = await this.port.getEffectiveAccount(accountId);
    const later = after?.history.months.find((m) => m.month === month.month);
    if (later && daysComplete(later, days, counted)) return { days };
    return later && later.entries !== month.entries ? { later } : {};
  }

  /** The index entries of `ranges` summed, split at `split`: one read per range, at once. */
  private async entrySums(accountId: string, ranges: readonly EffectiveRange[], split: string) {
    const parts = await Promise.all(
      ranges.map((range) => this.port.effectiveSums(accountId, range, split)),
    );
    return parts.reduce(plusSums, NO_SUMS);
  }
}
