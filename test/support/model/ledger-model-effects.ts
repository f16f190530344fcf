import type {
  Command,
  Direction,
  ModelHold,
  ModelLeg,
  ModelMovement,
  ModelState,
  Posting,
} from './ledger-model';

/** What a new command does to the model (test/support/model/ledger-model.ts), or why it is refused. */
export type Effect =
  | {
      readonly kind: 'applied';
      /** 201 for what creates, 200 for capture, void and close. */
      readonly status: number;
      /** Entries; each moves `balance` and `available` alike. */
      readonly postings: readonly Posting[];
      /** Changes of `available` besides the postings' (holds and their release). */
      readonly availableDeltas?: readonly { readonly account: number; readonly delta: number }[];
      /** A hold placed or settled, by the key that placed it. */
      readonly hold?: { readonly key: string; readonly state: ModelHold };
      /** A movement made or reversed, by the key that made it. */
      readonly movement?: { readonly key: string; readonly state: ModelMovement };
      /** The account this command closes. */
      readonly closes?: number;
    }
  | { readonly kind: 'rejected'; readonly status: number; readonly code: string };

const rejected = (status: number, code: string): Effect => ({ kind: 'rejected', status, code });
const REFUSED_FUNDS = rejected(409, 'insufficient_funds');
const NOT_ACTIVE = rejected(409, 'hold_not_active');
const CLOSED = rejected(409, 'account_closed');

const signed = (direction: Direction, amount: number) =>
  direction === 'credit' ? amount : -amount;

/** The effect of a new command (sent under `key`) on the state, or the recorded rejection. */
export function effectOf(state: ModelState, command: Command, key: string): Effect {
  // What an account may draw on: available plus its overdraft limit (docs/contract.md §17).
  const covers = (account: number, amount: number) =>
    (state.available[account] ?? 0) + (state.overdraft[account] ?? 0) >= amount;
  const closed = (...accounts: number[]) => accounts.some((a) => state.closed[a]);
  switch (command.kind) {
    case 'credit':
    case 'debit': {
      const { account, amount } = command;
      if (closed(account)) return CLOSED;
      if (command.kind === 'debit' && !covers(account, amount)) return REFUSED_FUNDS;
      const legs: ModelLeg[] = [{ account, direction: command.kind, amount }];
      return {
        kind: 'applied',
        status: 201,
        postings: [{ account, type: command.kind, delta: signed(command.kind, amount) }],
        movement: { key, state: { kind: 'entry', legs, amount, reversed: 0 } },
      };
    }
    case 'transfer': {
      const { account, to, amount } = command;
      if (closed(account, to)) return CLOSED;
      if (!covers(account, amount)) return REFUSED_FUNDS;
      const legs: ModelLeg[] = [
        { account, direction: 'debit', amount },
        { account: to, direction: 'credit', amount },
      ];
      return {
        kind: 'applied',
        status: 201,
        postings: [
          { account, type: 'transfer_out', delta: -amount },
          { account: to, type: 'transfer_in', delta: amount },
        ],
        movement: { key, state: { kind: 'transfer', legs, amount, reversed: 0 } },
      };
    }
    case 'hold':
      if (closed(command.account)) return CLOSED;
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
    case 'ledger': {
      const { legs } = command;
      if (closed(...legs.map((l) => l.account))) return CLOSED;
      if (legs.some((l) => l.direction === 'debit' && !covers(l.account, l.amount))) {
        return REFUSED_FUNDS;
      }
      const amount = legs.filter((l) => l.direction === 'debit').reduce((s, l) => s + l.amount, 0);
      return {
        kind: 'applied',
        status: 201,
        postings: legs.map((l) => ({
          account: l.account,
          type: `ledger_${l.direction}`,
          delta: signed(l.direction, l.amount),
        })),
        movement: { key, state: { kind: 'ledger', legs, amount, reversed: 0 } },
      };
    }
    case 'reverse':
      return reversalOf(state, command, covers, closed);
    case 'close': {
      const { account } = command;
      if (closed(account)) return { kind: 'applied', status: 200, postings: [] };
      const waiting = (state.pending[account] ?? []).length > 0;
      if (state.balances[account] !== 0 || state.available[account] !== 0 || waiting) {
        return rejected(409, 'account_not_empty');
      }
      return { kind: 'applied', status: 200, postings: [], closes: account };
    }
  }
}

/**
 * A reversal (docs/contract.md §16): what is left of the original first, then the accounts —
 * closed, then the cover of each leg that gives money back (in leg order).
 */
function reversalOf(
  state: ModelState,
  command: Extract<Command, { kind: 'reverse' }>,
  covers: (account: number, amount: number) => boolean,
  closed: (...accounts: number[]) => boolean,
): Effect {
  const original = state.movements.get(command.of);
  if (!original) throw new Error(`the driver reversed what was never made: ${command.of}`);
  const whole = original.kind === 'ledger';
  const left = original.amount - original.reversed;
  const amount = whole ? original.amount : (command.amount ?? left);
  if (amount > left || left === 0) return rejected(409, 'reversal_exceeds_original');
  const legs = original.legs.map((l) => ({
    account: l.account,
    direction: (l.direction === 'debit' ? 'credit' : 'debit') as Direction,
    amount: whole ? l.amount : amount,
  }));
  if (closed(...legs.map((l) => l.account))) return rejected(409, 'account_closed');
  if (legs.some((l) => l.direction === 'debit' && !covers(l.account, l.amount))) {
    return rejected(409, 'insufficient_funds');
  }
  return {
    kind: 'applied',
    status: 201,
    postings: legs.map((l) => ({
      account: l.account,
      type: 'reversal',
      delta: signed(l.direction, l.amount),
    })),
    movement: { key: command.of, state: { ...original, reversed: original.reversed + amount } },
  };
}
