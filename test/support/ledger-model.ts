/**
 * A pure reference model of the ledger's HTTP commands (docs/contract.md §4, §5): balances,
 * entries and what each Idempotency-Key answered. It knows nothing about DynamoDB; the
 * model-based fault test checks the real service against it.
 *
 * New command kinds plug in by adding a variant to `Command`, a case to `effectOf` (the checks
 * that must hold first, then the postings), and a generator plus a request in
 * test/faults/model.test.ts (`COMMAND_ARBITRARIES`, `httpOf`). For example:
 * - transfer `{ kind: 'transfer', from, to, amount }`: rejected `409 insufficient_funds` when
 *   `from` cannot cover it, else two postings, `transfer_out` (−amount) on `from` and
 *   `transfer_in` (+amount) on `to`; the sum of all balances does not change.
 * - holds: `ModelState` gains `holds` (amount, status) and `available` (= balance − active
 *   holds), which debits, transfers and new holds check instead of the balance; `capture`
 *   posts a `capture` entry and releases the rest, `void` releases all. Capture and void name
 *   a hold created in an EARLIER round (by creation index), so the driver knows its server id
 *   from that round's 201 body and the serial order within a round cannot change which hold
 *   an index means.
 */

export type Command =
  | { readonly kind: 'credit'; readonly account: number; readonly amount: number }
  | { readonly kind: 'debit'; readonly account: number; readonly amount: number };

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
  /** Every posting that reached the ledger, per account, in application order. */
  readonly entries: readonly (readonly Posting[])[];
  /** Per key: the request it first carried and the outcome recorded for it. */
  readonly keys: ReadonlyMap<string, { readonly command: Command; readonly outcome: Outcome }>;
}

export function initialState(accounts: number): ModelState {
  return {
    balances: Array.from({ length: accounts }, () => 0),
    entries: Array.from({ length: accounts }, () => []),
    keys: new Map(),
  };
}

type Effect =
  | { readonly kind: 'applied'; readonly postings: readonly Posting[] }
  | { readonly kind: 'rejected'; readonly status: number; readonly code: string };

/** The effect of a new command on the state, or the recorded rejection. */
function effectOf(state: ModelState, command: Command): Effect {
  switch (command.kind) {
    case 'credit':
      return {
        kind: 'applied',
        postings: [{ account: command.account, type: 'credit', delta: command.amount }],
      };
    case 'debit':
      if ((state.balances[command.account] ?? 0) < command.amount) {
        return { kind: 'rejected', status: 409, code: 'insufficient_funds' };
      }
      return {
        kind: 'applied',
        postings: [{ account: command.account, type: 'debit', delta: -command.amount }],
      };
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
  const effect = effectOf(state, request.command);
  const outcome: Outcome =
    effect.kind === 'applied'
      ? { status: 201, replayed: false }
      : { status: effect.status, code: effect.code, replayed: false };
  const keys = new Map(state.keys).set(request.key, { command: request.command, outcome });
  if (effect.kind === 'rejected') return { state: { ...state, keys }, outcome };
  const balances = [...state.balances];
  const entries = state.entries.map((list) => [...list]);
  for (const posting of effect.postings) {
    balances[posting.account] = (balances[posting.account] ?? 0) + posting.delta;
    entries[posting.account]?.push(posting);
  }
  return { state: { balances, entries, keys }, outcome };
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
