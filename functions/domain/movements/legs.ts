import type { AccountRecord, LedgerEntry, PostingEntry } from '../accounts/model';
import { type DomainError, LedgerRejection, PaymentIdConflictError } from '../shared/errors';
import type { EntryGuard } from './guard';
import { type ForeignOwner, refusalRank } from './precedence';
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
 * Why a movement was refused, judged on the accounts as they stood when the write failed: each
 * refused leg by the one precedence table (./precedence.ts), the leg whose code comes first
 * wins, the first leg in order among equals, so `insufficient_funds` names the first short
 * leg. An account of another owner is `not_found` over HTTP (the caller must not learn it
 * exists) and `owner_mismatch` for a ledger event, whose owner is the first account's (§10, §16).
 */
export function explainLegsRejection(
  rejected: LegsRejection,
  legs: readonly MovementLeg[],
  foreignOwner: ForeignOwner = 'not_found',
): DomainError {
  if (rejected.kind === 'payment_id_taken') return new PaymentIdConflictError();
  const errors = rejected.legs.map(({ index, account }) => {
    const leg = legs[index];
    if (!leg) throw new Error(`a rejected leg ${index} that the movement does not have`);
    const error = explainAccountRejection(account, leg.guard, leg.entry.accountId, foreignOwner);
    return { index, error: namingTheLeg(error, index, leg, account) };
  });
  errors.sort((a, b) => refusalRank(a.error.code) - refusalRank(b.error.code) || a.index - b.index);
  const first = errors[0];
  if (!first) throw new Error('a movement was refused without a refusing leg');
  return first.error;
}

/** A leg whose currency is not its account's (§35): the leg is named by index and account. */
export class LegCurrencyMismatchError extends LedgerRejection {
  constructor(index: number, accountId: string, accountCurrency: string, legCurrency: string) {
    super(
      'currency_mismatch',
      `legs[${index}] (account ${accountId}) is in ${legCurrency}; the account holds ${accountCurrency}.`,
    );
  }
}

/** A ledger transaction's `currency_mismatch` names its leg (docs/contract.md §35). */
function namingTheLeg(
  error: DomainError,
  index: number,
  leg: MovementLeg,
  account: AccountRecord | undefined,
): DomainError {
  const { entry } = leg;
  const ledgerLeg = entry.type === 'ledger_debit' || entry.type === 'ledger_credit';
  if (error.code !== 'currency_mismatch' || !ledgerLeg || !account) return error;
  return new LegCurrencyMismatchError(index, entry.accountId, account.currency, entry.currency);
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
