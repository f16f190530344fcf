/**
 * A pure reference model of the ledger's HTTP commands (docs/contract.md §4, §5): balances,
 * entries and what each Idempotency-Key answered. It knows nothing about DynamoDB; the
 * model-based fault test checks the real service against it.
 *
 * New command kinds plug in by adding a variant to `Command`, a case to `effectOf` (the checks
 * that must hold first, then the postings), and a generator plus a request in
 * test/faults/model.test.ts (`COMMAND_ARBITRARIES`, `httpOf`).
 *
 * Transfers and holds (docs/contract.md §10, §11): every account has `available` (= balance −
 * active holds), which debits, transfers and new holds check instead of the balance. A transfer
 * posts `transfer_out` (−amount) and `transfer_in` (+amount); the sum of all balances does not
 * change. A hold lowers `available` only; `capture` posts a `capture` entry and releases the
 * rest, `void` releases all; either is refused `409 hold_not_active` once the hold is settled.
 * Capture and void name a hold by the Idempotency-Key that placed it in an EARLIER round, so the
 * driver knows its server id from that round's 201 body and the serial order within a round
 * cannot change which hold a command means. (Expiry is the integration model test's:
 * test/integration/holds-model.test.ts drives the clock and the sweeper.)
 */

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
  | { readonly kind: 'void'; readonly hold: string };

export interface ModelHold {
  readonly account: number;
  readonly amount: number;
  readonly status: 'active' | 'captured' | 'voided';
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
  /** Placed holds by the key of the request that placed them. */
  readonly holds: ReadonlyMap<string, ModelHold>;
  /** Every posting that reached the ledger, per account, in application order. */
  readonly entries: readonly (readonly Posting[])[];
  /** Per key: the request it first carried and the outcome recorded for it. */
  readonly keys: ReadonlyMap<string, { readonly command: Command; readonly outcome: Outcome }>;
}

export function initialState(accounts: number): ModelState {
  return {
    balances: Array.from({ length: accounts }, () => 0),
    available: Array.from({ length: accounts }, () => 0),
    holds: new Map(),
    entries: Array.from({ length: accounts }, () => []),
    keys: new Map(),
  };
}

type Effect =
  | {
      readonly kind: 'applied';
      /** 201 for what creates, 200 for capture and void. */
      readonly status: number;
      /** Entries; each moves `balance` and, unless listed in `held`, `available` alike. */
      readonly postings: readonly Posting[];
      /** Changes of `available` besides the postings' (holds and their release). */
      readonly availableDeltas?: readonly { readonly account: number; readonly delta: number }[];
      /** A hold placed or settled, by the key that placed it. */
      readonly hold?: { readonly key: string; readonly state: ModelHold };
    }
  | { readonly kind: 'rejected'; readonly status: number; readonly code: string };

const REFUSED_FUNDS: Effect = { kind: 'rejected', status: 409, code: 'insufficient_funds' };
const NOT_ACTIVE: Effect = { kind: 'rejected', status: 409, code: 'hold_not_active' };

/** The effect of a new command (sent under `key`) on the state, or the recorded rejection. */
function effectOf(state: ModelState, command: Command, key: string): Effect {
  const covers = (account: number, amount: number) => (state.available[account] ?? 0) >= amount;
  switch (command.kind) {
    case 'credit':
      return {
        kind: 'applied',
        status: 201,
        postings: [{ account: command.account, type: 'credit', delta: command.amount }],
      };
    case 'debit':
      if (!covers(command.account, command.amount)) return REFUSED_FUNDS;
      return {
        kind: 'applied',
        status: 201,
        postings: [{ account: command.account, type: 'debit', delta: -command.amount }],
      };
    case 'transfer':
      if (!covers(command.account, command.amount)) return REFUSED_FUNDS;
      return {
        kind: 'applied',
        status: 201,
        postings: [
          { account: command.account, type: 'transfer_out', delta: -command.amount },
          { account: command.to, type: 'transfer_in', delta: command.amount },
        ],
      };
    case 'hold':
      if (!covers(command.account, command.amount)) return REFUSED_FUNDS;
      return {
        kind: 'applied',
        status: 201,
        postings: [],
        availableDeltas: [{ account: command.account, delta: -command.amount }],
        hold: {
          key,
          state: { account: command.account, amount: command.amount, status: 'active' },
        },
      };
    case 'capture':
    case 'void': {
      const hold = state.holds.get(command.hold);
      if (!hold) throw new Error(`the driver named a hold that was never placed: ${command.hold}`);
      if (hold.status !== 'active') return NOT_ACTIVE;
      const captured = command.kind === 'capture' ? (command.amount ?? hold.amount) : 0;
      return {
        kind: 'applied',
        status: 200,
        // The capture entry moves available too; the hold's release gives back all it held.
        postings:
          captured > 0 ? [{ account: hold.account, type: 'capture', delta: -captured }] : [],
        availableDeltas: [{ account: hold.account, delta: hold.amount }],
        hold: {
          key: command.hold,
          state: { ...hold, status: command.kind === 'capture' ? 'captured' : 'voided' },
        },
      };
    }
  }
}

/** One request applied on its own: replay, key reuse, or a new command's effect. */
export function step(state: ModelState, request: Request): { state: ModelState; outcome: Outcome } {
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
  for (const posting of effect.postings) {
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
  return { state: { balances, available, holds, entries, keys }, outcome };
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
): ModelState | undefined {
  for (const order of permutations(group.map((_, i) => i))) {
    let current = state;
    let matches = true;
    for (const index of order) {
      const request = group[index];
      const seen = observed[index];
      if (!request || !seen) return undefined;
      const next = step(current, request);
      if (!sameOutcome(next.outcome, seen)) {
        matches = false;
        break;
      }
      current = next.state;
    }
    if (matches) return current;
  }
  return undefined;
}

export function sameOutcome(a: Outcome, b: Outcome): boolean {
  return a.status === b.status && a.code === b.code && a.replayed === b.replayed;
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
