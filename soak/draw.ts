import type {
  AccountSpec,
  BatchItem,
  Currency,
  EventItem,
  Leg,
  Operation,
  OperationKind,
} from './operations';
import type { Random } from './random';

/**
 * The operation mix of a soak plan (soak/plan.ts): weights per kind, amounts, back-dated
 * entries, batches, exchanges between currencies and ledger events, each drawn from the seed.
 * Movements between accounts stay within one currency, except an exchange, whose legs balance
 * in each currency (CONTRACT §35).
 */
type Drawer = (before: readonly Operation[]) => Operation;

/** Amounts of ledger events start here; HTTP amounts stay below. */
export const EVENT_AMOUNT_BASE = 700_000;

export function drawer(random: Random, accounts: readonly AccountSpec[]): Drawer {
  const open = accounts.map((_, i) => i).filter((i) => !accounts[i]?.closable);
  const eventAccounts = open.filter((i) => accounts[i]?.events);
  const closable = accounts.map((_, i) => i).filter((i) => accounts[i]?.closable);
  const amount = () => random.pick([1, 5, 20, 50, 100, 250, 400, 1_000]);
  const currencyOf = (i: number) => accounts[i]?.currency;
  const sameCurrency = (a: number) => open.filter((i) => currencyOf(i) === currencyOf(a));
  /** Two open accounts of one currency, the first from `from`. */
  const two = (from: readonly number[]) => {
    const a = random.pick(from);
    const peers = sameCurrency(a).filter((i) => i !== a);
    if (peers.length === 0) throw new Error(`soak: account ${a} has no open peer in its currency`);
    return [a, random.pick(peers)] as const;
  };
  /** Open accounts whose currency has at least three: a 3-leg transaction's first. */
  const three = open.filter((i) => sameCurrency(i).length >= 3);
  const inCurrency = (currency: Currency) => open.filter((i) => currencyOf(i) === currency);
  /** A currency's liquidity account: its first open account with an overdraft. */
  const desk = (currency: Currency) =>
    inCurrency(currency).find((i) => (accounts[i]?.overdraft ?? 0) > 0);
  let nextEventAmount = EVENT_AMOUNT_BASE;
  let nextSequence = 1;
  const weights: [number, (before: readonly Operation[]) => Operation | undefined][] = [
    [
      14,
      () => ({ kind: 'credit', account: random.pick(open), amount: amount() * 2, ...backdated() }),
    ],
    [10, () => ({ kind: 'debit', account: random.pick(open), amount: amount(), ...backdated() })],
    [
      8,
      () => {
        const [account, to] = two(open);
        return { kind: 'transfer', account, to, amount: amount() };
      },
    ],
    [
      4,
      () => {
        if (three.length === 0) return undefined;
        const [a, b] = two(three);
        const peers = sameCurrency(a);
        let c = random.pick(peers);
        while (c === a || c === b) c = random.pick(peers);
        const x = amount();
        const y = amount();
        return {
          kind: 'ledger',
          currency: currencyOf(a) ?? 'EUR',
          legs: [
            { account: a, direction: 'debit', amount: x + y },
            { account: b, direction: 'credit', amount: x },
            { account: c, direction: 'credit', amount: y },
          ],
        };
      },
    ],
    // An exchange (README "Currency exchange"): a customer changes money of one currency into
    // the other through the desk's two liquidity accounts (each currency's account with an
    // overdraft: a liquidity line), one transaction whose legs balance per currency; the rate
    // is only recorded. The customer's debit needs funds, the desk's has its line.
    [
      3,
      () => {
        const usdDesk = desk('USD');
        const eurDesk = desk('EUR');
        const usdCustomers = inCurrency('USD').filter((i) => i !== usdDesk);
        const eurCustomers = inCurrency('EUR').filter((i) => i !== eurDesk);
        if (usdDesk === undefined || eurDesk === undefined) return undefined;
        if (usdCustomers.length === 0 || eurCustomers.length === 0) return undefined;
        const usdCustomer = random.pick(usdCustomers);
        const eurCustomer = random.pick(eurCustomers);
        const rate = random.pick(['0.9213', '0.85', '1.0825']);
        const dollars = amount();
        const euros = Math.max(1, Math.round(dollars * Number(rate)));
        const sellsUsd = random.chance(0.5);
        // Half name every leg's currency; half give EUR as the default and name only USD's.
        const byDefault = random.chance(0.5);
        const leg = (account: number, direction: Leg['direction'], sum: number, c: Currency) => ({
          account,
          direction,
          amount: sum,
          ...(byDefault && c === 'EUR' ? {} : { currency: c }),
        });
        const [usdFrom, usdTo] = sellsUsd ? [usdCustomer, usdDesk] : [usdDesk, usdCustomer];
        const [eurFrom, eurTo] = sellsUsd ? [eurDesk, eurCustomer] : [eurCustomer, eurDesk];
        return {
          kind: 'ledger',
          ...(byDefault ? { currency: 'EUR' as const } : {}),
          legs: [
            leg(usdFrom, 'debit', dollars, 'USD'),
            leg(usdTo, 'credit', dollars, 'USD'),
            leg(eurFrom, 'debit', euros, 'EUR'),
            leg(eurTo, 'credit', euros, 'EUR'),
          ],
          rates: [{ base: 'USD', quote: 'EUR', rate }],
        };
      },
    ],
    [
      6,
      () => ({
        kind: 'hold',
        account: random.pick(open),
        amount: amount(),
        short: random.chance(0.3),
      }),
    ],
    [
      4,
      (before) => {
        const hold = earlier(random, before, 'hold');
        if (hold === undefined) return undefined;
        return random.chance(0.5)
          ? { kind: 'capture', hold, amount: 1 }
          : { kind: 'capture', hold };
      },
    ],
    [
      3,
      (before) => {
        const hold = earlier(random, before, 'hold');
        return hold === undefined ? undefined : { kind: 'void', hold };
      },
    ],
    [
      4,
      (before) => {
        // A credit into a deferred account too: before it is posted, its reversal answers
        // `409 credit_pending` and is retried (docs/reliability.md "Found").
        const reversible = (op: Operation) => op.kind === 'debit' || op.kind === 'credit';
        const of = earlier(
          random,
          before.map((op) => (reversible(op) ? op : undefined)),
        );
        return of === undefined
          ? undefined
          : { kind: 'reverse', of, amount: random.pick([1, 2, 5]) };
      },
    ],
    [2, () => ({ kind: 'close', account: random.pick(closable) })],
    // Closable accounts see a little money, so some closes succeed and some do not.
    [
      1,
      () => ({
        kind: random.chance(0.5) ? 'credit' : 'debit',
        account: random.pick(closable),
        amount: 10,
      }),
    ],
    [2, () => ({ kind: 'period', account: random.pick(open), backdays: random.int(20, 40) })],
    [
      5,
      () => ({
        kind: 'batch',
        mode: random.chance(0.5) ? 'atomic' : 'independent',
        items: batchItems(),
      }),
    ],
    [
      5,
      () => {
        const items: EventItem[] = [];
        const count = random.int(2, 6);
        for (let i = 0; i < count; i++) {
          if (random.chance(0.15)) nextSequence++; // a gap
          const type = random.chance(0.7) ? 'credit' : 'debit';
          items.push({
            type,
            account: random.pick(eventAccounts),
            amount: nextEventAmount++,
            sequence: nextSequence++,
            duplicate: type === 'credit' && random.chance(0.3),
          });
        }
        return { kind: 'events', items };
      },
    ],
  ];
  const total = weights.reduce((s, [w]) => s + w, 0);
  function backdated(): { backdays?: number } {
    return random.chance(0.2) ? { backdays: random.int(1, 60) } : {};
  }
  function batchItems(): BatchItem[] {
    const items: BatchItem[] = [];
    const count = random.int(2, 6);
    for (let i = 0; i < count; i++) {
      const roll = random.next();
      // Credits and transfers into deferred accounts too: §31's atomic-batch seams pass since
      // the batch-seams branch landed (docs/reliability.md).
      if (roll < 0.5) items.push({ op: 'credit', account: random.pick(open), amount: amount() });
      else if (roll < 0.8)
        items.push({ op: 'debit', account: random.pick(open), amount: amount() });
      else {
        const [account, to] = two(open);
        items.push({ op: 'transfer', account, to, amount: amount() });
      }
    }
    return items;
  }
  return (before) => {
    for (;;) {
      let roll = random.next() * total;
      for (const [weight, make] of weights) {
        roll -= weight;
        if (roll < 0) {
          const op = make(before);
          if (op) return op;
          break;
        }
      }
    }
  };
}

/** A random earlier operation of one of `kinds`, by position. */
function earlier(
  random: Random,
  before: readonly (Operation | undefined)[],
  ...kinds: OperationKind[]
): number | undefined {
  const candidates = before.flatMap((op, i) =>
    op && (kinds.length === 0 || kinds.includes(op.kind)) ? [i] : [],
  );
  return candidates.length === 0 ? undefined : random.pick(candidates.slice(-12));
}
