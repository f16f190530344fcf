/**
 * A pure reference model of the ledger's HTTP commands (docs/contract.md §4, §5): balances,
 * entries and what each Idempotency-Key answered. It knows nothing about DynamoDB; the
 * model-based tests (test/faults/model.test.ts, test/integration/accounts/ledger-model.test.ts, both
 * through test/support/model/model-driver.ts) check the real service against it.
 *
 * New command kinds plug in by adding a variant to `Command`, a case to `effectOf`
 * (test/support/model/ledger-model-effects.ts: the checks that must hold first, then the postings),
 * and a generator plus a request in the driver (`COMMAND_ARBITRARIES`, `httpOf`).
 *
 * Transfers and holds (docs/contract.md §10, §11): every account has `available` (= balance −
 * active holds), which debits, transfers and new holds check instead of the balance. A transfer
 * posts `transfer_out` (−amount) and `transfer_in` (+amount); the sum of all balances does not
 * change. A hold lowers `available` only; `capture` posts a `capture` entry and releases the
 * rest, `void` releases all; either is refused `409 hold_not_active` once the hold is settled.
 * Capture, void and reversals name what they act on by the Idempotency-Key that created it in an
 * EARLIER round, so the driver knows its server id from that round's answer and the serial order
 * within a round cannot change what a command means.
 *
 * Ledger depth (§16, §17): ledger transactions of N legs (unbalanced ones are `422
 * legs_unbalanced`, never recorded), reversals of credits, debits, transfers and ledger
 * transactions guarded by what is left of the original, accounts with an overdraft limit
 * (what they may draw on is available + limit), and closing (`account_not_empty` unless balance
 * and available are 0; afterwards every effect is `account_closed`).
 *
 * Deferred credits (§24): on a `deferred` account every posting that gives it money waits in
 * `pending` (the answer is as for a direct account); debits, holds and closing see posted money
 * only, closing with pending credits is `account_not_empty`, and `fold` posts what waits, as the
 * folder does when the driver runs it.
 */
import { effectOf } from './ledger-model-effects';

export type Direction = 'debit' | 'credit';

export interface ModelLeg {
  readonly account: number;
  readonly direction: Direction;
  readonly amount: number;
}

export type Command =
  | { readonly kind: 'credit'; readonly account: number; readonly amount: number }
  | { readonly kind: 'debit'; readonly account: number; readonly amount: number }
  | {
      readonly kind: 'transfer';
      readonly account: number;
      readonly to: number;
      readonly amount: number;
    }
  | { readonly kind: 'hold'; readonly account: number; readonly amount: number }
  /** `amount` undefined: the whole hold. `hold` is the key of the request that placed it. */
  | { readonly kind: 'capture'; readonly hold: string; readonly amount: number | undefined }
  | { readonly kind: 'void'; readonly hold: string }
  | { readonly kind: 'ledger'; readonly legs: readonly ModelLeg[] }
  /**
   * `of`: the key of the credit, debit, transfer or ledger transaction; amount: all that is
   * left (always for a ledger transaction, whose reversals carry no amount on the wire).
   */
  | {
      readonly kind: 'reverse';
      readonly of: string;
      readonly amount: number | undefined;
      readonly reference?: string;
    }
  | { readonly kind: 'close'; readonly account: number };

export interface ModelHold {
  readonly account: number;
  readonly amount: number;
  readonly status: 'active' | 'captured' | 'voided';
}

/** Something reversals can move back, by the key of the request that made it. */
export interface ModelMovement {
  readonly kind: 'entry' | 'transfer' | 'ledger';
  /** How it moved money, each leg at its full amount. */
  readonly legs: readonly ModelLeg[];
  /** What its reversals may add up to. */
  readonly amount: number;
  readonly reversed: number;
}

/** A command sent under an Idempotency-Key. */
export interface Request {
  readonly key: string;
  readonly command: Command;
}

/** What a caller sees, reduced to what the model can predict. */
export interface Outcome {
  readonly status: number;
  /** problem+json `code` for 4xx answers. */
  readonly code?: string;
  readonly replayed: boolean;
}

export interface Posting {
  readonly account: number;
  readonly type: string;
  /** Signed change of the account's balance. */
  readonly delta: number;
}

export interface ModelState {
  readonly balances: readonly number[];
  /** Balance less the active holds, per account. */
  readonly available: readonly number[];
  /** How far below 0 each account's available may go (docs/contract.md §17). */
  readonly overdraft: readonly number[];
  readonly closed: readonly boolean[];
  /** Accounts that take their credits deferred (§24). */
  readonly deferred: readonly boolean[];
  /** Per account, the credits accepted into a deferred account and not posted yet, in order. */
  readonly pending: readonly (readonly Posting[])[];
  /** Placed holds by the key of the request that placed them. */
  readonly holds: ReadonlyMap<string, ModelHold>;
  /** What reversals can move back, by the key of the request that made it. */
  readonly movements: ReadonlyMap<string, ModelMovement>;
  /** Every posting that reached the ledger, per account, in application order. */
  readonly entries: readonly (readonly Posting[])[];
  /** Per key: the request it first carried and the outcome recorded for it. */
  readonly keys: ReadonlyMap<string, { readonly command: Command; readonly outcome: Outcome }>;
}

export function initialState(
  accounts: number,
  overdraft: readonly number[] = [],
  deferred: readonly boolean[] = [],
): ModelState {
  return {
    deferred: Array.from({ length: accounts }, (_, i) => deferred[i] === true),
    pending: Array.from({ length: accounts }, () => []),
    balances: Array.from({ length: accounts }, () => 0),
    available: Array.from({ length: accounts }, () => 0),
    overdraft: Array.from({ length: accounts }, (_, i) => overdraft[i] ?? 0),
    closed: Array.from({ length: accounts }, () => false),
    holds: new Map(),
    movements: new Map(),
    entries: Array.from({ length: accounts }, () => []),
    keys: new Map(),
  };
}

/** Σ debits ≠ Σ credits: a shape error, answered before any key is looked at (§16). */
export function unbalanced(command: Command): boolean {
  if (command.kind !== 'ledger') return false;
  const sum = (direction: Direction) =>
    command.legs.filter((l) => l.direction === direction).reduce((s, l) => s + l.amount, 0);
  return sum('debit') !== sum('credit');
}

const LEGS_UNBALANCED: Outcome = { status: 422, code: 'legs_unbalanced', replayed: false };

/** One request applied on its own: replay, key reuse, or a new command's effect. */
export function step(state: ModelState, request: Request): { state: ModelState; outcome: Outcome } {
  if (unbalanced(request.command)) return { state, outcome: LEGS_UNBALANCED };
  const known = state.keys.get(request.key);
  if (known) {
    if (sameCommand(known.command, request.command)) {
      return { state, outcome: { ...known.outcome, replayed: true } };
    }
    // Not recorded: the key keeps its first request.
    return {
      state,
      outcome: { status: 422, code: 'idempotency_key_reused', replayed: false },
    };
  }
  const effect = effectOf(state, request.command, request.key);
  const outcome: Outcome =
    effect.kind === 'applied'
      ? { status: effect.status, replayed: false }
      : { status: effect.status, code: effect.code, replayed: false };
  const keys = new Map(state.keys).set(request.key, { command: request.command, outcome });
  if (effect.kind === 'rejected') return { state: { ...state, keys }, outcome };
  const balances = [...state.balances];
  const available = [...state.available];
  const entries = state.entries.map((list) => [...list]);
  const pending = state.pending.map((list) => [...list]);
  for (const posting of effect.postings) {
    if (posting.delta > 0 && state.deferred[posting.account]) {
      pending[posting.account]?.push(posting);
      continue;
    }
    balances[posting.account] = (balances[posting.account] ?? 0) + posting.delta;
    available[posting.account] = (available[posting.account] ?? 0) + posting.delta;
    entries[posting.account]?.push(posting);
  }
  for (const change of effect.availableDeltas ?? []) {
    available[change.account] = (available[change.account] ?? 0) + change.delta;
  }
  const holds = effect.hold
    ? new Map(state.holds).set(effect.hold.key, effect.hold.state)
    : state.holds;
  const movements = effect.movement
    ? new Map(state.movements).set(effect.movement.key, effect.movement.state)
    : state.movements;
  const closed =
    effect.closes === undefined
      ? state.closed
      : state.closed.map((c, i) => c || i === effect.closes);
  return {
    state: { ...state, balances, available, closed, holds, movements, entries, pending, keys },
    outcome,
  };
}

/** The folder's work (§24): every pending credit posted, in the order it was accepted. */
export function fold(state: ModelState): ModelState {
  const balances = [...state.balances];
  const available = [...state.available];
  const entries = state.entries.map((list) => [...list]);
  for (const posting of state.pending.flat()) {
    balances[posting.account] = (balances[posting.account] ?? 0) + posting.delta;
    available[posting.account] = (available[posting.account] ?? 0) + posting.delta;
    entries[posting.account]?.push(posting);
  }
  return { ...state, balances, available, entries, pending: state.pending.map(() => []) };
}

/**
 * Requests sent concurrently are correct when SOME serial order of them produces exactly the
 * observed outcomes. Returns the state after that order, or undefined when no order explains
 * them. Groups are small (the generator keeps them ≤ 5), so trying every order is cheap.
 */
export function explainConcurrent(
  state: ModelState,
  group: readonly Request[],
  observed: readonly Outcome[],
  options: OutcomeOptions = {},
): ModelState | undefined {
  for (const order of permutations(group.map((_, i) => i))) {
    let current = state;
    let matches = true;
    for (const index of order) {
      const request = group[index];
      const seen = observed[index];
      if (!request || !seen) return undefined;
      const next = step(current, request);
      if (!sameOutcome(next.outcome, seen, options)) {
        matches = false;
        break;
      }
      current = next.state;
    }
    if (matches) return current;
  }
  return undefined;
}

export interface OutcomeOptions {
  /**
   * Answers may be lost after DynamoDB decided (the fault proxy): the SDK's retry of a first
   * request that committed is then answered from its record, as a replay (docs/contract.md §4:
   * the stored status and body, with `Idempotent-Replayed: true`). A first application may come
   * back marked replayed; a replay must still say it is one.
   */
  readonly firstMayReplay?: boolean;
}

/** Whether `observed` is the answer the model `expected`. */
export function sameOutcome(
  expected: Outcome,
  observed: Outcome,
  options: OutcomeOptions = {},
): boolean {
  const replayed =
    expected.replayed === observed.replayed ||
    (options.firstMayReplay === true && !expected.replayed && observed.replayed);
  return expected.status === observed.status && expected.code === observed.code && replayed;
}

function sameCommand(a: Command, b: Command): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function* permutations(items: readonly number[]): Generator<number[]> {
  if (items.length <= 1) {
    yield [...items];
    return;
  }
  for (let i = 0; i < items.length; i++) {
    const rest = [...items.slice(0, i), ...items.slice(i + 1)];
    for (const tail of permutations(rest)) yield [items[i] as number, ...tail];
  }
}
