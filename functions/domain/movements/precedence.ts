import type { AccountRecord } from '../accounts/model';
import { exceedsBalanceLimit } from '../accounts/money';
import type { EntryGuard } from './guard';

/**
 * THE order of refusals (docs/contract.md §16, docs/architecture.md "One write path"): the
 * codes in the order they are checked, like TigerBeetle's result codes. A guarded account
 * change that was refused is explained by the first row whose check fails on the account as it
 * stood; several refused legs, by the one whose code comes first (the first leg among equals).
 * Single requests, SQS runs, batches, holds, the export fee and the folder all read this table.
 */

/** What a refused write is judged against: a leg's guard; the folder guards no currency. */
export type JudgedGuard = Omit<EntryGuard, 'currency'> & { readonly currency?: string };

/**
 * An account of another owner: `not_found` over HTTP (the caller must not learn it exists),
 * `owner_mismatch` for a ledger event, whose owner is the first account's (§10, §16).
 */
export type ForeignOwner = 'not_found' | 'owner_mismatch';

interface Row {
  readonly code: RefusalCode;
  /** True: this rule refuses the account (undefined: missing) under the guard. */
  readonly refuses: (
    account: AccountRecord | undefined,
    guard: JudgedGuard,
    foreign: ForeignOwner,
  ) => boolean;
  /**
   * True: a pending credit this rule refuses can never post by reading again (§36): the folder
   * sets it aside instead of failing the account's message.
   */
  readonly setsAsideCredit?: true;
}

export type RefusalCode =
  | 'not_found'
  | 'owner_mismatch'
  | 'currency_mismatch'
  | 'account_closed'
  | 'period_closed'
  | 'insufficient_funds'
  | 'balance_limit_exceeded';

const foreignTo = (account: AccountRecord, guard: JudgedGuard) =>
  guard.ownerId !== undefined && account.ownerId !== guard.ownerId;

/** What an account may draw on: `available` plus its `overdraftLimit` (docs/contract.md §17). */
export const spendableOf = (account: AccountRecord): number =>
  account.available + account.overdraftLimit;

export const REFUSAL_PRECEDENCE: readonly Row[] = [
  {
    code: 'not_found',
    refuses: (account, guard, foreign) =>
      !account || (foreign === 'not_found' && foreignTo(account, guard)),
  },
  { code: 'owner_mismatch', refuses: (account, guard) => !!account && foreignTo(account, guard) },
  {
    code: 'currency_mismatch',
    refuses: (account, guard) =>
      guard.currency !== undefined && account?.currency !== guard.currency,
  },
  {
    code: 'account_closed',
    refuses: (account, guard) => !!guard.requireOpen && account?.status === 'closed',
  },
  {
    code: 'period_closed',
    setsAsideCredit: true,
    refuses: (account, guard) =>
      account?.closedThrough !== undefined &&
      guard.effectiveAt !== undefined &&
      guard.effectiveAt <= account.closedThrough,
  },
  {
    code: 'insufficient_funds',
    refuses: (account, guard) =>
      !!account &&
      guard.requireAvailableAtLeast !== undefined &&
      spendableOf(account) < guard.requireAvailableAtLeast,
  },
  {
    code: 'balance_limit_exceeded',
    setsAsideCredit: true,
    refuses: (account, guard) =>
      !!account && exceedsBalanceLimit(account.balance, guard.increaseBy ?? 0),
  },
];

/**
 * The first rule of the table that refuses the account under the guard; undefined when the
 * account satisfies every rule (storage and rules disagree: the caller answers `internal`).
 */
export function refusalCode(
  account: AccountRecord | undefined,
  guard: JudgedGuard,
  foreign: ForeignOwner = 'not_found',
): RefusalCode | undefined {
  return REFUSAL_PRECEDENCE.find((row) => row.refuses(account, guard, foreign))?.code;
}

/** A refusal the folder answers by setting the credit aside (§36), by the table's rows. */
export function setsAsideCredit(code: string): boolean {
  return REFUSAL_PRECEDENCE.some((row) => row.code === code && row.setsAsideCredit === true);
}

/** A code's place in the table; a code the table does not hold (internal) ranks last. */
export function refusalRank(code: string): number {
  const at = REFUSAL_PRECEDENCE.findIndex((row) => row.code === code);
  return at < 0 ? REFUSAL_PRECEDENCE.length : at;
}
