import {
  BalanceLimitExceededError,
  CurrencyMismatchError,
  type DomainError,
  InsufficientFundsError,
  InternalError,
  NotFoundError,
  PaymentIdConflictError,
} from '../shared/errors';
import type { AccountRecord } from './model';
import { exceedsBalanceLimit } from './money';
import type { EntryGuard } from './port';

/**
 * Why an account refused a guarded posting, judged on the state the failed write returned:
 * missing or not the caller's → not_found (the same answer, so nobody learns it exists);
 * then currency, then cover, then the balance cap. HTTP commands, ledger events and the export
 * fee share it.
 */
export function explainAccountRejection(
  account: AccountRecord | undefined,
  guard: EntryGuard,
): DomainError {
  if (!account || (guard.ownerId !== undefined && account.ownerId !== guard.ownerId)) {
    return new NotFoundError('Account not found.');
  }
  if (account.currency !== guard.currency) {
    return new CurrencyMismatchError(account.currency, guard.currency);
  }
  const required = guard.requireAvailableAtLeast;
  if (required !== undefined && account.available < required) return new InsufficientFundsError();
  if (exceedsBalanceLimit(account.balance, guard.increaseBy ?? 0)) {
    return new BalanceLimitExceededError();
  }
  // The guard failed on a state that satisfies it: storage and rules disagree.
  return new InternalError(new Error('account guard failed without a failing rule'));
}

/** The rejections a guarded posting write reports (see WriteResult). */
export type PostingRejection =
  | { readonly kind: 'account_rejected'; readonly account: AccountRecord | undefined }
  | { readonly kind: 'payment_id_taken' };

export function explainPostingRejection(
  rejected: PostingRejection,
  guard: EntryGuard,
): DomainError {
  if (rejected.kind === 'payment_id_taken') return new PaymentIdConflictError();
  return explainAccountRejection(rejected.account, guard);
}
