import type { AccountRecord } from '../accounts/model';
import { exceedsBalanceLimit } from '../accounts/money';
import {
  AccountClosedError,
  BalanceLimitExceededError,
  CurrencyMismatchError,
  type DomainError,
  InsufficientFundsError,
  InternalError,
  NotFoundError,
  PaymentIdConflictError,
} from '../shared/errors';
import { PeriodClosedError } from '../statements/errors';
import type { EntryGuard } from './guard';

/** What an account may draw on: `available` plus its `overdraftLimit` (docs/contract.md §17). */
export const spendableOf = (account: AccountRecord): number =>
  account.available + account.overdraftLimit;

/**
 * Why an account refused a guarded posting, judged on the state the failed write returned:
 * missing or not the caller's → not_found (the same answer, so nobody learns it exists);
 * then currency, then closed, then cover, then the balance cap (docs/contract.md §16).
 * HTTP commands, ledger events and the export fee share it; `accountId` names the account in
 * an `insufficient_funds` detail (a leg of a ledger transaction).
 */
export function explainAccountRejection(
  account: AccountRecord | undefined,
  guard: EntryGuard,
  accountId?: string,
): DomainError {
  if (!account || (guard.ownerId !== undefined && account.ownerId !== guard.ownerId)) {
    return new NotFoundError('Account not found.');
  }
  if (account.currency !== guard.currency) {
    return new CurrencyMismatchError(account.currency, guard.currency);
  }
  if (guard.requireOpen && account.status === 'closed') return new AccountClosedError(accountId);
  const closedThrough = account.closedThrough;
  if (closedThrough !== undefined && guard.effectiveAt !== undefined) {
    if (guard.effectiveAt <= closedThrough) return new PeriodClosedError(closedThrough, accountId);
  }
  const required = guard.requireAvailableAtLeast;
  if (required !== undefined && spendableOf(account) < required) {
    return new InsufficientFundsError(accountId);
  }
  if (exceedsBalanceLimit(account.balance, guard.increaseBy ?? 0)) {
    return new BalanceLimitExceededError();
  }
  // The guard failed on a state that satisfies it: storage and rules disagree.
  return new InternalError(new Error('account guard failed without a failing rule'));
}

/** The rejections a guarded posting write reports (see WriteResult). */
export type PostingRejection =
  | {
      readonly kind: 'account_rejected';
      readonly account: AccountRecord | undefined;
      /** Refused by the account's intake gate (§24): `account` is the gate's copy. */
      readonly viaGate?: boolean;
    }
  | { readonly kind: 'payment_id_taken' };

export function explainPostingRejection(
  rejected: PostingRejection,
  guard: EntryGuard,
): DomainError {
  if (rejected.kind === 'payment_id_taken') return new PaymentIdConflictError();
  return explainAccountRejection(rejected.account, guard);
}
