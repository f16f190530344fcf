import fc from 'fast-check';
import type { Command, ModelLeg } from './ledger-model';

/**
 * What the model-based tests generate (test/support/model/model-driver.ts runs it): rounds of
 * actions, each a new command or a reference to an earlier one (a capture, void or reversal of
 * what an earlier round made; a duplicate, replay or reuse of a key).
 */

export type Action =
  | { kind: 'new'; command: Command }
  | { kind: 'duplicate'; of: number }
  | { kind: 'replay'; of: number }
  | { kind: 'reuse'; of: number }
  /** Of a hold placed in an earlier round; `percent` of it, or all of it when undefined. */
  | { kind: 'capture'; of: number; percent: number | undefined }
  | { kind: 'void'; of: number }
  /** Of a movement of an earlier round, `copies` times with their own keys (racing). */
  | { kind: 'reverse'; of: number; percent: number | undefined; copies: number };

/** Round amounts too, so a debit of exactly the balance (the cover boundary) comes up often. */
const amountArb = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 400 }) },
  { weight: 2, arbitrary: fc.constantFrom(50, 100) },
);

/** 2 … n legs over distinct accounts, balanced unless `skew` says otherwise (1 in 8). */
function legsArb(accounts: number): fc.Arbitrary<ModelLeg[]> {
  const indices = Array.from({ length: accounts }, (_, i) => i);
  return fc
    .record({
      order: fc.shuffledSubarray(indices, { minLength: 2, maxLength: accounts }),
      debits: fc.array(fc.integer({ min: 1, max: 200 }), {
        minLength: accounts,
        maxLength: accounts,
      }),
      credits: fc.array(fc.boolean(), { minLength: accounts, maxLength: accounts }),
      skew: fc.oneof(
        { weight: 7, arbitrary: fc.constant(0) },
        { weight: 1, arbitrary: fc.constant(1) },
      ),
    })
    .map(({ order, debits, credits, skew }) => {
      // The first leg debits, the second credits, the others either way.
      const direction = (i: number) =>
        i === 0 ? 'debit' : i === 1 ? 'credit' : credits[i] ? 'credit' : 'debit';
      const legs = order.map((account, i) => ({
        account,
        direction: direction(i) as 'debit' | 'credit',
        amount: debits[i] ?? 1,
      }));
      const creditLegs = legs.filter((l) => l.direction === 'credit');
      const total = legs.filter((l) => l.direction === 'debit').reduce((s, l) => s + l.amount, 0);
      // Spread the debits' total over the credits, each at least 1.
      const first = legs[0];
      if (first && total < creditLegs.length) first.amount += creditLegs.length - total;
      let rest = Math.max(total, creditLegs.length);
      creditLegs.forEach((leg, i) => {
        leg.amount = i === creditLegs.length - 1 ? rest : Math.max(1, Math.floor(rest / 2));
        rest -= leg.amount;
      });
      const last = legs.at(-1);
      if (last) last.amount += skew;
      return legs;
    });
}

/** One generator per command kind a round creates on its own; the others refer to earlier rounds. */
function commandArb(accounts: number): fc.Arbitrary<Command> {
  const account = fc.nat({ max: accounts - 1 });
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc.record({ kind: fc.constant('credit' as const), account, amount: amountArb }),
    },
    {
      weight: 3,
      arbitrary: fc.record({ kind: fc.constant('debit' as const), account, amount: amountArb }),
    },
    {
      weight: 2,
      arbitrary: fc
        .record({ account, offset: fc.integer({ min: 1, max: accounts - 1 }), amount: amountArb })
        .map(({ account: from, offset, amount }) => ({
          kind: 'transfer' as const,
          account: from,
          to: (from + offset) % accounts,
          amount,
        })),
    },
    {
      weight: 2,
      arbitrary: fc.record({ kind: fc.constant('hold' as const), account, amount: amountArb }),
    },
    { weight: 4, arbitrary: legsArb(accounts).map((legs) => ({ kind: 'ledger' as const, legs })) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('close' as const), account }) },
  );
}

export function planArb(accounts: number): fc.Arbitrary<Action[][]> {
  const action: fc.Arbitrary<Action> = fc.oneof(
    {
      weight: 7,
      arbitrary: fc.record({ kind: fc.constant('new' as const), command: commandArb(accounts) }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('capture' as const),
        of: fc.nat(),
        percent: fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('void' as const), of: fc.nat() }) },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('reverse' as const),
        of: fc.nat(),
        // Above 100: more than the original moved.
        percent: fc.option(fc.integer({ min: 1, max: 130 }), { nil: undefined }),
        copies: fc.integer({ min: 1, max: 3 }),
      }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('duplicate' as const), of: fc.nat() }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('replay' as const), of: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('reuse' as const), of: fc.nat() }) },
  );
  // Rounds of at most 4 actions (a racing reversal may make a round of up to 5 requests), after
  // a first round that funds all but the last account (which starts empty, so it may close).
  const funding: Action[] = Array.from({ length: accounts - 1 }, (_, account) => ({
    kind: 'new',
    command: { kind: 'credit', account, amount: 300 + 200 * account },
  }));
  return fc
    .array(fc.array(action, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 8 })
    .map((rounds) => [funding, ...rounds]);
}

/** The same key with another request: what `reuse` sends; undefined when there is none. */
export function altered(command: Command): Command | undefined {
  switch (command.kind) {
    case 'void':
    case 'close':
      return undefined;
    case 'capture':
      return { ...command, amount: command.amount === undefined ? 1 : undefined };
    case 'reverse':
      // Another reference: every reversal route carries one (a ledger transaction's no amount).
      return { ...command, reference: command.reference === undefined ? 'reused' : undefined };
    case 'ledger': {
      // Both sides one more, so the reuse stays balanced (an unbalanced one is refused first).
      const [debit, credit, ...rest] = command.legs;
      if (!debit || !credit) return undefined;
      return {
        kind: 'ledger',
        legs: [
          { ...debit, amount: debit.amount + 1 },
          { ...credit, amount: credit.amount + 1 },
          ...rest,
        ],
      };
    }
    default:
      return { ...command, amount: command.amount + 1 };
  }
}
