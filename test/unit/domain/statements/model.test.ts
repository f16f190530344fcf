import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addMovements,
  type EffectiveHistory,
  type EffectiveMovement,
  justAfter,
  monthOf,
  monthStart,
  NO_SUMS,
  nextMonth,
  planStatement,
  statementTotals,
} from '../../../../functions/domain/statements/model';

/**
 * docs/contract.md §26 as a model: random histories of entries at random effective times
 * (backdated ones among them, written in any order), kept as the store keeps them — month sums
 * plus an index — and every statement checked against the plain sum over the entries.
 */

const START = Date.parse('2025-01-01T00:00:00.000Z');
const SPAN = 500 * 86_400_000;

const instant = fc.integer({ min: 0, max: SPAN }).map((ms) => new Date(START + ms).toISOString());
type Movement = { effectiveAt: string; amount: number; credit: boolean };
const movement: fc.Arbitrary<Movement> = fc.record({
  effectiveAt: instant,
  amount: fc.integer({ min: 1, max: 1_000_000 }),
  credit: fc.boolean(),
});

/** What the account item and the index hold after the entries, in whatever order they came. */
function store(opening: number, entries: readonly Movement[]) {
  const months = new Map<string, { credits: number; debits: number }>();
  const index: EffectiveMovement[] = [];
  for (const e of entries) {
    const sums = months.get(monthOf(e.effectiveAt)) ?? { credits: 0, debits: 0 };
    if (e.credit) sums.credits += e.amount;
    else sums.debits += e.amount;
    months.set(monthOf(e.effectiveAt), sums);
    index.push({
      effectiveAt: e.effectiveAt,
      credit: e.credit ? e.amount : 0,
      debit: e.credit ? 0 : e.amount,
    });
  }
  const history: EffectiveHistory = {
    opening,
    since: '1970-01-01T00:00:00.000Z',
    months: [...months]
      .map(([month, sums]) => ({ month, ...sums }))
      .sort((a, b) => a.month.localeCompare(b.month)),
  };
  const read = (range: { from: string; to: string }) =>
    index.filter((m) => m.effectiveAt >= range.from && m.effectiveAt < range.to);
  return { history, read };
}

function statement(opening: number, entries: readonly Movement[], from: string, to: string) {
  const { history, read } = store(opening, entries);
  const plan = planStatement(from, to);
  return statementTotals(history, plan, from, [
    addMovements(NO_SUMS, read(plan.head), from),
    addMovements(NO_SUMS, plan.tail ? read(plan.tail) : [], from),
  ]);
}

const signed = (e: Movement) => (e.credit ? e.amount : -e.amount);

describe('statements over month sums and the index', () => {
  it('equal the plain sums: closing = opening + credits − debits, windows chain', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1000, max: 1000 }),
        fc.array(movement, { maxLength: 60 }),
        fc.uniqueArray(instant, { minLength: 3, maxLength: 3 }),
        (opening, entries, cuts) => {
          const [a = '', b = '', c = ''] = [...cuts].sort();
          const first = statement(opening, entries, a, b);
          const second = statement(opening, entries, b, c);
          const sumBefore = (t: string) =>
            opening + entries.filter((e) => e.effectiveAt < t).reduce((s, e) => s + signed(e), 0);
          const inside = entries.filter((e) => e.effectiveAt >= a && e.effectiveAt < b);
          expect(first.openingBalance).toBe(sumBefore(a));
          expect(first.totalCredits).toBe(
            inside.filter((e) => e.credit).reduce((s, e) => s + e.amount, 0),
          );
          expect(first.totalDebits).toBe(
            inside.filter((e) => !e.credit).reduce((s, e) => s + e.amount, 0),
          );
          expect(first.closingBalance).toBe(
            first.openingBalance + first.totalCredits - first.totalDebits,
          );
          expect(first.closingBalance).toBe(sumBefore(b));
          expect(second.openingBalance).toBe(first.closingBalance);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('read at most two partial months from the index, and every month between whole', () => {
    fc.assert(
      fc.property(fc.uniqueArray(instant, { minLength: 2, maxLength: 2 }), (pair) => {
        const [from = '', to = ''] = [...pair].sort();
        const plan = planStatement(from, to);
        expect(plan.head.from).toBe(monthStart(monthOf(from)));
        expect(plan.head.to <= monthStart(nextMonth(monthOf(from)))).toBe(true);
        if (plan.tail) expect(plan.tail.from).toBe(monthStart(monthOf(to)));
        for (const month of plan.fullMonths) {
          expect(monthStart(month) >= plan.head.to).toBe(true);
          expect(monthStart(nextMonth(month)) <= (plan.tail?.from ?? to)).toBe(true);
        }
      }),
    );
  });

  it('answers an effective balance as the opening just after the instant', () => {
    expect(justAfter('2026-11-30T23:59:59.999Z')).toBe('2026-12-01T00:00:00.000Z');
    expect(nextMonth('2026-12')).toBe('2027-01');
  });
});
