import { type Random, seeded } from './random';

/**
 * What a soak run does, drawn from its seed before anything is sent: the accounts, their
 * monitors, and the operations in the order they are started. Accounts are named by index and
 * earlier operations by their position, so a subset of the operations (shrinking) still means
 * the same thing; an operation whose target did not come about (a capture of a refused hold)
 * is skipped.
 */
export interface AccountSpec {
  readonly deferred: boolean;
  readonly overdraft: number;
  /** Receives ledger events (never closed: a poison event would depend on timing). */
  readonly events: boolean;
  /** Only these are ever closed; they receive nothing but HTTP operations. */
  readonly closable: boolean;
}

export interface MonitorSpec {
  readonly account: number;
  readonly field: 'balance' | 'available';
  readonly operator: 'gte' | 'lt';
  readonly value: number;
}

export type Leg = {
  readonly account: number;
  readonly direction: 'debit' | 'credit';
  readonly amount: number;
};

/** One movement as a batch operation carries it. */
export type BatchItem =
  | { readonly op: 'credit' | 'debit'; readonly account: number; readonly amount: number }
  | {
      readonly op: 'transfer';
      readonly account: number;
      readonly to: number;
      readonly amount: number;
    };

export type Operation =
  | {
      readonly kind: 'credit' | 'debit';
      readonly account: number;
      readonly amount: number;
      /** Days before the run's start, for a back-dated `effectiveAt`. */
      readonly backdays?: number;
    }
  | {
      readonly kind: 'transfer';
      readonly account: number;
      readonly to: number;
      readonly amount: number;
    }
  | { readonly kind: 'ledger'; readonly legs: readonly Leg[] }
  | {
      readonly kind: 'hold';
      readonly account: number;
      readonly amount: number;
      readonly short: boolean;
    }
  | { readonly kind: 'capture'; readonly hold: number; readonly amount?: number }
  | { readonly kind: 'void'; readonly hold: number }
  | { readonly kind: 'reverse'; readonly of: number; readonly amount: number }
  | { readonly kind: 'close'; readonly account: number }
  | { readonly kind: 'period'; readonly account: number; readonly backdays: number }
  | {
      readonly kind: 'batch';
      readonly mode: 'independent' | 'atomic';
      readonly items: readonly BatchItem[];
    }
  /** Ledger events of one producer, sent together: shuffled, some twice, with sequence gaps. */
  | { readonly kind: 'events'; readonly items: readonly EventItem[] };

export interface EventItem {
  readonly type: 'credit' | 'debit';
  readonly account: number;
  /** Unique across the run: how the checker tells which event a journal record applied. */
  readonly amount: number;
  readonly sequence: number;
  readonly duplicate: boolean;
}

export type OperationKind = Operation['kind'];

export interface Plan {
  readonly seed: number;
  readonly accounts: readonly AccountSpec[];
  readonly monitors: readonly MonitorSpec[];
  readonly operations: readonly Operation[];
  /** Operations to leave out (SOAK_KNOWN_DEFECTS switches them on, docs/reliability.md). */
  readonly knownDefects: boolean;
}

/** Amounts of ledger events start here; HTTP amounts stay below. */
export const EVENT_AMOUNT_BASE = 700_000;

export interface PlanOptions {
  readonly seed: number;
  readonly operations: number;
  readonly knownDefects?: boolean;
}

export function drawPlan(options: PlanOptions): Plan {
  const random = seeded(options.seed);
  const accounts: AccountSpec[] = [
    { deferred: false, overdraft: 0, events: true, closable: false },
    { deferred: false, overdraft: 500, events: true, closable: false },
    { deferred: true, overdraft: 0, events: true, closable: false },
    { deferred: false, overdraft: 0, events: false, closable: false },
    { deferred: true, overdraft: 0, events: false, closable: false },
    { deferred: false, overdraft: 0, events: false, closable: true },
    { deferred: false, overdraft: 0, events: false, closable: true },
  ];
  const monitors: MonitorSpec[] = [
    { account: 0, field: 'balance', operator: 'gte', value: 2_000 },
    { account: 1, field: 'available', operator: 'lt', value: 0 },
    { account: 3, field: 'available', operator: 'gte', value: 500 },
  ];
  const draw = drawer(random, accounts, options.knownDefects === true);
  const operations: Operation[] = [];
  for (let i = 0; i < options.operations; i++) operations.push(draw(operations));
  return {
    seed: options.seed,
    accounts,
    monitors,
    operations,
    knownDefects: options.knownDefects === true,
  };
}

type Drawer = (before: readonly Operation[]) => Operation;

function drawer(random: Random, accounts: readonly AccountSpec[], knownDefects: boolean): Drawer {
  const open = accounts.map((_, i) => i).filter((i) => !accounts[i]?.closable);
  const direct = open.filter((i) => !accounts[i]?.deferred);
  const eventAccounts = open.filter((i) => accounts[i]?.events);
  const closable = accounts.map((_, i) => i).filter((i) => accounts[i]?.closable);
  const amount = () => random.pick([1, 5, 20, 50, 100, 250, 400, 1_000]);
  const two = (from: readonly number[]) => {
    const a = random.pick(from);
    let b = random.pick(open);
    while (b === a) b = random.pick(open);
    return [a, b] as const;
  };
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
        const [a, b] = two(open);
        let c = random.pick(open);
        while (c === a || c === b) c = random.pick(open);
        const x = amount();
        const y = amount();
        return {
          kind: 'ledger',
          legs: [
            { account: a, direction: 'debit', amount: x + y },
            { account: b, direction: 'credit', amount: x },
            { account: c, direction: 'credit', amount: y },
          ],
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
        const of = earlier(random, before, 'credit', 'debit');
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
      // Deferred accounts in atomic batches: docs/reliability.md "Known defects".
      const targets = knownDefects ? open : direct;
      if (roll < 0.5) items.push({ op: 'credit', account: random.pick(targets), amount: amount() });
      else if (roll < 0.8)
        items.push({ op: 'debit', account: random.pick(open), amount: amount() });
      else {
        const [account, to] = two(open);
        if (knownDefects || !accounts[to]?.deferred)
          items.push({ op: 'transfer', account, to, amount: amount() });
        else items.push({ op: 'debit', account, amount: amount() });
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
  before: readonly Operation[],
  ...kinds: OperationKind[]
): number | undefined {
  const candidates = before.flatMap((op, i) => (kinds.includes(op.kind) ? [i] : []));
  return candidates.length === 0 ? undefined : random.pick(candidates.slice(-12));
}
