import type { AccountRecord, LedgerEntry, PostingEntry } from '../accounts/model';
import { type DomainError, OwnerMismatchError, PaymentIdConflictError } from '../shared/errors';
import type { EntryGuard } from './guard';
import { explainAccountRejection } from './rejections';

/**
 * One account's side of a movement of money between accounts — a transfer (docs/contract.md
 * §10), a ledger transaction or a reversal (§16): the entry its listing shows and what its
 * account must satisfy. All legs of a movement commit in ONE transaction.
 */
export interface MovementLeg {
  readonly entry: LedgerEntry;
  readonly guard: EntryGuard;
}

/** A leg whose account refused, as the account stood then (undefined: missing). */
export interface RejectedLeg {
  /** Index into the movement's legs. */
  readonly index: number;
  readonly account: AccountRecord | undefined;
  /**
   * The refusal came from the account's intake gate (docs/contract.md §24): `account` is the
   * gate's copy of it, undefined when the gate is missing.
   */
  readonly viaGate?: boolean;
}

/** The refusals a movement's write reports besides a committed or claimed result. */
export type LegsRejection =
  | { readonly kind: 'legs_rejected'; readonly legs: readonly RejectedLeg[] }
  | { readonly kind: 'payment_id_taken' };

/**
 * Which refusal wins when several legs refused (docs/contract.md §16): not found, owners,
 * currency, closed, funds, the balance cap; the first leg in order among equals, so
 * `insufficient_funds` names the first short leg.
 */
const PRECEDENCE = [
  'not_found',
  'owner_mismatch',
  'currency_mismatch',
  'account_closed',
  'period_closed',
  'insufficient_funds',
  'balance_limit_exceeded',
];

/**
 * Why a movement was refused, judged on the accounts as they stood when the write failed. An
 * account of another owner is `not_found` over HTTP (the caller must not learn it exists) and
 * `owner_mismatch` for a ledger event, whose owner is the first account's (§10, §16).
 */
export function explainLegsRejection(
  rejected: LegsRejection,
  legs: readonly MovementLeg[],
  foreignOwner: 'not_found' | 'owner_mismatch' = 'not_found',
): DomainError {
  if (rejected.kind === 'payment_id_taken') return new PaymentIdConflictError();
  const errors = rejected.legs.map(({ index, account }) => {
    const leg = legs[index];
    if (!leg) throw new Error(`a rejected leg ${index} that the movement does not have`);
    const owner = leg.guard.ownerId;
    if (foreignOwner === 'owner_mismatch' && account && owner && account.ownerId !== owner) {
      return { index, error: new OwnerMismatchError() as DomainError };
    }
    return { index, error: explainAccountRejection(account, leg.guard, leg.entry.accountId) };
  });
  const rank = (error: DomainError) => {
    const at = PRECEDENCE.indexOf(error.code);
    return at < 0 ? PRECEDENCE.length : at;
  };
  errors.sort((a, b) => rank(a.error) - rank(b.error) || a.index - b.index);
  const first = errors[0];
  if (!first) throw new Error('a movement was refused without a refusing leg');
  return first.error;
}

/** The guard of a leg: the caller's account, in the currency, open; debits covered. */
export function legGuard(
  entry: Pick<LedgerEntry, 'amount' | 'currency' | 'effectiveAt'>,
  direction: 'debit' | 'credit',
  ownerId: string | undefined,
): EntryGuard {
  return {
    ...(ownerId === undefined ? {} : { ownerId }),
    currency: entry.currency,
    requireOpen: true,
    effectiveAt: entry.effectiveAt,
    ...(direction === 'debit'
      ? { requireAvailableAtLeast: entry.amount }
      : { increaseBy: entry.amount }),
  };
}

/** The guard every posting of a caller or producer draws: currency, open, cover or cap. */
export function postingGuard(
  entry: Pick<PostingEntry, 'type' | 'amount' | 'currency' | 'effectiveAt'>,
  ownerId?: string,
): EntryGuard {
  return legGuard(entry, entry.type, ownerId);
}
