import type { AccountRecord } from '../accounts/model';
import {
  AccountClosedError,
  BalanceLimitExceededError,
  CurrencyMismatchError,
  type DomainError,
  InsufficientFundsError,
  InternalError,
  NotFoundError,
  OwnerMismatchError,
  PaymentIdConflictError,
} from '../shared/errors';
import { PeriodClosedError } from '../statements/errors';
import type { EntryGuard } from './guard';
import { type ForeignOwner, refusalCode } from './precedence';

export { spendableOf } from './precedence';

/**
 * Why an account refused a guarded posting, judged on the state the failed write returned by
 * the one precedence table (./precedence.ts): missing or not the caller's → not_found (the
 * same answer, so nobody learns it exists); then currency, closed, the closed period, cover,
 * the balance cap (docs/contract.md §16). HTTP commands, ledger events, holds and the export
 * fee share it; `accountId` names the account in an `insufficient_funds` detail (a leg of a
 * ledger transaction). `foreign`: how an account of another owner is answered.
 */
export function explainAccountRejection(
  account: AccountRecord | undefined,
  guard: EntryGuard,
  accountId?: string,
  foreign: ForeignOwner = 'not_found',
): DomainError {
  const code = refusalCode(account, guard, foreign);
  if (code === 'not_found') return new NotFoundError('Account not found.');
  if (code === undefined || !account) {
    // The guard failed on a state that satisfies it: storage and rules disagree.
    return new InternalError(new Error('account guard failed without a failing rule'));
  }
  switch (code) {
    case 'owner_mismatch':
      return new OwnerMismatchError();
    case 'currency_mismatch':
      return new CurrencyMismatchError(account.currency, guard.currency);
    case 'account_closed':
      return new AccountClosedError(accountId);
    case 'period_closed':
      return new PeriodClosedError(account.closedThrough ?? '', accountId);
    case 'insufficient_funds':
      return new InsufficientFundsError(accountId);
    case 'balance_limit_exceeded':
      return new BalanceLimitExceededError();
  }
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
