import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { sumsByCurrency } from '../../../functions/domain/accounts/ledger-currencies';
import { bodyOf } from '../../support/ledger-api';
import { useLedgerFixture } from '../fixture';

/**
 * Model-based (docs/contract.md §35, §36): random multi-currency ledger transactions and whole
 * reversals over HTTP on DynamoDB Local, against a pure model of balances. After every step
 * each balance is the model's, and money is conserved per currency: the balances of a currency
 * always sum to what was credited in it at the start, whatever moved across currencies. A leg
 * sent in another currency than its account's is balanced in the currency it was sent in, so
 * the answer is the account's `currency_mismatch` naming that leg, not `legs_unbalanced`.
 */
const fixture = useLedgerFixture();
const { api } = fixture;

const CURRENCIES = ['USD', 'USD', 'EUR', 'EUR', 'GBP', 'GBP'] as const;
const FUNDS = 1_000;

interface Leg {
  readonly account: number;
  readonly direction: 'debit' | 'credit';
  readonly amount: number;
  /** Another currency than the account's, to be refused. */
  readonly wrong: boolean;
}
type Step =
  | { readonly kind: 'transaction'; readonly legs: readonly Leg[]; readonly balanced: boolean }
  | { readonly kind: 'reverse'; readonly of: number };

const legArb = fc.record({
  account: fc.nat(CURRENCIES.length - 1),
  direction: fc.constantFrom('debit' as const, 'credit' as const),
  amount: fc.integer({ min: 1, max: 400 }),
  wrong: fc.nat(7).map((n) => n === 0),
});
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('transaction' as const),
      legs: fc.uniqueArray(legArb, { minLength: 1, maxLength: 4, selector: (l) => l.account }),
      balanced: fc.nat(9).map((n) => n < 8),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reverse' as const), of: fc.nat(20) }) },
);

/** The currency a leg is sent in: its account's, or another one when it is `wrong`. */
const currencyOf = (leg: Leg) => {
  const own = CURRENCIES[leg.account] ?? 'EUR';
  return leg.wrong ? (own === 'USD' ? 'EUR' : 'USD') : own;
};

/**
 * Each drawn leg plus, when asked, a counter-leg per SENT currency on a free account of it: a
 * wrong-currency leg is balanced like any other, so the body passes the per-currency balance
 * check and the account's refusal (`currency_mismatch`) is what the server must answer.
 */
function legsOf(step: Extract<Step, { kind: 'transaction' }>): Leg[] {
  const legs = [...step.legs];
  if (!step.balanced) return legs;
  for (const currency of new Set(legs.map(currencyOf))) {
    const net = legs
      .filter((l) => currencyOf(l) === currency)
      .reduce((sum, l) => sum + (l.direction === 'debit' ? l.amount : -l.amount), 0);
    const free = CURRENCIES.findIndex(
      (c, i) => c === currency && !legs.some((l) => l.account === i),
    );
    if (net === 0 || free < 0) continue;
    legs.push({
      account: free,
      direction: net > 0 ? 'credit' : 'debit',
      amount: Math.abs(net),
      wrong: false,
    });
  }
  return legs;
}

/**
 * Always run first, each balanced in what it was sent: a wrong leg at index 0 (a USD account
 * sent EUR); a short EUR debit, then two wrong legs (GBP accounts sent USD), where the first
 * wrong one, legs[1], is named (currency ranks before funds, the first leg among equals); then
 * a sound transaction.
 */
const MISMATCHES: Step[] = [
  {
    kind: 'transaction',
    legs: [{ account: 0, direction: 'debit', amount: 50, wrong: true }],
    balanced: true,
  },
  {
    kind: 'transaction',
    legs: [
      { account: 2, direction: 'debit', amount: 2 * FUNDS, wrong: false },
      { account: 4, direction: 'credit', amount: 30, wrong: true },
      { account: 5, direction: 'debit', amount: 40, wrong: true },
    ],
    balanced: true,
  },
  {
    kind: 'transaction',
    legs: [{ account: 1, direction: 'debit', amount: 20, wrong: false }],
    balanced: true,
  },
];

it('agrees with the model and conserves money per currency (§35)', async () => {
  /** How many `currency_mismatch` answers were expected, over every run: the path is reached. */
  let mismatches = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(stepArb, { minLength: 3, maxLength: 10 }), async (steps) => {
      const ids: string[] = [];
      for (const currency of CURRENCIES) ids.push(await api.account(FUNDS, currency));
      const balances = CURRENCIES.map(() => FUNDS);
      const committed: { id: string; legs: Leg[]; reversed: boolean }[] = [];
      for (const step of steps) {
        if (step.kind === 'reverse') {
          const original = committed[step.of % Math.max(committed.length, 1)];
          if (!original) continue;
          const res = await api.post(`/v1/ledger-transactions/${original.id}/reversals`, {});
          const short = original.legs.some(
            (l) => l.direction === 'credit' && (balances[l.account] ?? 0) < l.amount,
          );
          const expected = original.reversed ? 409 : short ? 409 : 201;
          expect(res.statusCode, res.body).toBe(expected);
          if (res.statusCode === 201) {
            original.reversed = true;
            for (const l of original.legs) {
              balances[l.account] =
                (balances[l.account] ?? 0) + (l.direction === 'debit' ? l.amount : -l.amount);
            }
          }
        } else {
          const legs = legsOf(step);
          if (legs.length < 2) continue;
          const body = {
            legs: legs.map((l) => ({
              accountId: ids[l.account],
              direction: l.direction,
              amount: l.amount,
              currency: currencyOf(l),
            })),
          };
          const res = await api.post('/v1/ledger-transactions', body, randomUUID());
          const unbalanced = sumsByCurrency(body).some((s) => s.debits !== s.credits);
          const mismatched = legs.findIndex((l) => l.wrong);
          const wrong = legs[mismatched];
          const short = legs.some(
            (l) => l.direction === 'debit' && (balances[l.account] ?? 0) < l.amount,
          );
          if (unbalanced) {
            expect([res.statusCode, bodyOf(res).code], res.body).toEqual([422, 'legs_unbalanced']);
          } else if (wrong) {
            mismatches += 1;
            // The first wrong leg in order is named, with what was sent and what the account holds.
            expect(res.statusCode, res.body).toBe(422);
            expect(bodyOf(res)).toMatchObject({
              code: 'currency_mismatch',
              detail:
                `legs[${mismatched}] (account ${ids[wrong.account]}) is in ${currencyOf(wrong)}; ` +
                `the account holds ${CURRENCIES[wrong.account]}.`,
            });
          } else if (short) {
            expect([res.statusCode, bodyOf(res).code], res.body).toEqual([
              409,
              'insufficient_funds',
            ]);
          } else {
            expect(res.statusCode, res.body).toBe(201);
            committed.push({ id: String(bodyOf(res).id), legs, reversed: false });
            for (const l of legs) {
              balances[l.account] =
                (balances[l.account] ?? 0) + (l.direction === 'debit' ? -l.amount : l.amount);
            }
          }
        }
        const actual = await Promise.all(ids.map(async (id) => (await api.money(id)).balance));
        expect(actual).toEqual(balances);
        // Conservation per currency: nothing crossed from one currency into another.
        for (const currency of new Set(CURRENCIES)) {
          const total = actual
            .filter((_, i) => CURRENCIES[i] === currency)
            .reduce((a, b) => a + b, 0);
          expect(total, currency).toBe(2 * FUNDS);
        }
      }
    }),
    { numRuns: 8, examples: [[MISMATCHES]] },
  );
  expect(mismatches).toBeGreaterThanOrEqual(2);
});
