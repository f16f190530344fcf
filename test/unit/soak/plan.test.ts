import { describe, expect, it } from 'vitest';
import { currencyRefusal } from '../../../soak/check/answers';
import { drawPlan, type Plan } from '../../../soak/plan';

/**
 * A soak plan is drawn from its seed alone (docs/reliability.md: "the seed replays it"): the
 * same seed draws the same plan, another seed another one; and what it draws is what the
 * ledger accepts — movements within one currency, exchanges whose legs balance per currency.
 */
describe('soak plans', () => {
  it('draws the same plan from the same seed, another from another seed', () => {
    const a = drawPlan({ seed: 42, operations: 200 });
    expect(drawPlan({ seed: 42, operations: 200 })).toEqual(a);
    expect(drawPlan({ seed: 43, operations: 200 }).operations).not.toEqual(a.operations);
  });

  it('moves money between accounts of one currency, except exchanges balanced per currency', () => {
    const plans: Plan[] = [1, 2, 3, 4, 5].map((seed) => drawPlan({ seed, operations: 200 }));
    let exchanges = 0;
    for (const plan of plans) {
      const currency = (account: number) => plan.accounts[account]?.currency;
      for (const op of plan.operations) {
        if (op.kind === 'transfer') expect(currency(op.to)).toBe(currency(op.account));
        if (op.kind === 'batch') {
          for (const item of op.items)
            if (item.op === 'transfer') expect(currency(item.to)).toBe(currency(item.account));
        }
        if (op.kind === 'events') {
          for (const item of op.items) expect(currency(item.account)).toBe('EUR');
        }
        if (op.kind !== 'ledger') continue;
        expect(currencyRefusal(plan, op)).toBeUndefined();
        const currencies = new Set(op.legs.map((leg) => currency(leg.account)));
        if (op.rates) {
          exchanges++;
          expect([...currencies].sort()).toEqual(['EUR', 'USD']);
        } else expect(currencies.size).toBe(1);
      }
    }
    expect(exchanges).toBeGreaterThan(0);
  });
});
