import fc from 'fast-check';

/**
 * The reference model of batches (docs/contract.md §25) over credits and debits of a few
 * accounts without overdraft, the last of them deferred (§24: its credits wait as pending
 * credits, never spendable, as no folder runs here): what every operation, single request and
 * atomic batch must answer, and the posted balances and pending sums after. Each operation key
 * remembers its first request and recorded answer.
 */
export interface Posting {
  readonly key: string;
  readonly type: 'credit' | 'debit';
  readonly account: number;
  readonly amount: number;
}

/** An operation of a plan: a new one, the same request again, or its key with another amount. */
export type PlanOperation =
  | {
      readonly kind: 'new';
      readonly type: 'credit' | 'debit';
      readonly account: number;
      readonly amount: number;
    }
  | { readonly kind: 'again'; readonly of: number }
  | { readonly kind: 'reuse'; readonly of: number };

export type PlanAction =
  | { readonly kind: 'single'; readonly operation: PlanOperation }
  | {
      readonly kind: 'batch';
      readonly mode: 'independent' | 'atomic';
      readonly operations: readonly PlanOperation[];
      /** Sent twice at once with one key: one effect, the same answer. */
      readonly twice: boolean;
    };

/** What the model expects an operation to answer: a status and, for a problem, its code. */
export interface Expected {
  readonly status: number;
  readonly code?: string;
}

export const ACCOUNTS = 3;
/** The account whose credits go through intake (docs/contract.md §24). */
export const DEFERRED = ACCOUNTS - 1;
/** What the deferred account holds posted before a run (credited while it was direct). */
export const DEFERRED_FUNDS = 100;

/**
 * Pending money is never spendable (docs/contract.md §31): an atomic batch that credits the
 * deferred account 50 and then debits 120 of its 100 posted fails at the debit, and one that
 * then debits an empty account too still names the debit.
 */
export const PENDING_NOT_SPENDABLE: PlanAction[] = [
  {
    kind: 'batch',
    mode: 'atomic',
    twice: false,
    operations: [
      { kind: 'new', type: 'credit', account: DEFERRED, amount: 50 },
      { kind: 'new', type: 'debit', account: DEFERRED, amount: 120 },
      { kind: 'new', type: 'debit', account: 0, amount: 10 },
    ],
  },
  {
    kind: 'batch',
    mode: 'independent',
    twice: false,
    operations: [
      { kind: 'new', type: 'credit', account: DEFERRED, amount: 50 },
      { kind: 'new', type: 'debit', account: DEFERRED, amount: 120 },
      { kind: 'new', type: 'debit', account: DEFERRED, amount: 60 },
    ],
  },
];

const operationArb: fc.Arbitrary<PlanOperation> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('new' as const),
      type: fc.constantFrom('credit' as const, 'debit' as const),
      account: fc.integer({ min: 0, max: ACCOUNTS - 1 }),
      amount: fc.integer({ min: 1, max: 60 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('again' as const), of: fc.nat(50) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reuse' as const), of: fc.nat(50) }) },
);

export const batchPlanArb: fc.Arbitrary<PlanAction[]> = fc.array(
  fc.oneof(
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('single' as const), operation: operationArb }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('batch' as const),
        mode: fc.constantFrom('independent' as const, 'atomic' as const),
        operations: fc.array(operationArb, { minLength: 1, maxLength: 12 }),
        twice: fc.boolean(),
      }),
    },
  ),
  { minLength: 1, maxLength: 8 },
);

/** Posted balances and pending credit sums, by account. */
interface State {
  readonly balances: number[];
  readonly pending: number[];
}

export class BatchModel {
  readonly balances: number[] = Array.from({ length: ACCOUNTS }, (_, i) =>
    i === DEFERRED ? DEFERRED_FUNDS : 0,
  );
  readonly pending: number[] = Array(ACCOUNTS).fill(0);
  /** Every posting ever sent, in order: what `again` and `reuse` point at. */
  readonly sent: Posting[] = [];
  /** The first request of each key and its recorded answer. */
  private readonly recorded = new Map<string, { posting: Posting; expected: Expected }>();
  private fresh = 0;

  constructor(private readonly prefix: string) {}

  /** The posting a plan operation stands for (a reuse keeps the key with another amount). */
  resolve(operation: PlanOperation): Posting | undefined {
    if (operation.kind === 'new') {
      const posting = { key: `${this.prefix}-${this.fresh++}`, ...operation };
      delete (posting as { kind?: string }).kind;
      return posting;
    }
    if (this.sent.length === 0) return undefined;
    const earlier = this.sent[operation.of % this.sent.length] as Posting;
    return operation.kind === 'again' ? earlier : { ...earlier, amount: earlier.amount + 1 };
  }

  /** The answer of one posting on `state`, applied to it when it moves money. */
  private judge(posting: Posting, state: State): Expected {
    const known = this.recorded.get(posting.key);
    if (known) {
      return known.posting.amount === posting.amount && known.posting.type === posting.type
        ? known.expected
        : { status: 422, code: 'idempotency_key_reused' };
    }
    const { account, amount } = posting;
    const balance = state.balances[account] as number;
    if (posting.type === 'debit' && balance < amount) {
      return { status: 409, code: 'insufficient_funds' };
    }
    if (posting.type === 'debit') state.balances[account] = balance - amount;
    else if (account === DEFERRED) state.pending[account] = (state.pending[account] ?? 0) + amount;
    else state.balances[account] = balance + amount;
    return { status: 201 };
  }

  private record(posting: Posting, expected: Expected): void {
    this.sent.push(posting);
    if (!this.recorded.has(posting.key) && expected.status !== 422) {
      this.recorded.set(posting.key, { posting, expected });
    }
  }

  /** A single request, or an independent batch's operation, in request order. */
  apply(posting: Posting): Expected {
    const expected = this.judge(posting, this);
    this.record(posting, expected);
    return expected;
  }

  /** An atomic batch: every operation's answer, or the first failing index and its answer. */
  applyAtomic(
    postings: readonly Posting[],
  ): { results: Expected[] } | { failed: number; cause: Expected } {
    const trial = { balances: [...this.balances], pending: [...this.pending] };
    const results: Expected[] = [];
    for (const [index, posting] of postings.entries()) {
      const expected = this.judge(posting, trial);
      if (expected.status >= 300) {
        for (const p of postings) this.sent.push(p);
        return { failed: index, cause: expected };
      }
      results.push(expected);
    }
    this.balances.splice(0, ACCOUNTS, ...trial.balances);
    this.pending.splice(0, ACCOUNTS, ...trial.pending);
    for (const [i, posting] of postings.entries()) this.record(posting, results[i] as Expected);
    return { results };
  }
}
