import type { LedgerEntry } from '../../domain/accounts/model';
import type { LegsRejection, RejectedLeg } from '../../domain/movements/legs';
import type { PostingRejection } from '../../domain/movements/rejections';
import type { ReversalRejection } from '../../domain/movements/reversal';
import type { Cancellation } from './decode';

/**
 * What a decoded cancellation (`decode.ts`) means to each movement of the single store, after
 * its claim: the accounts first, then the paymentId (docs/contract.md §16, §23).
 */

/** The legs whose account (or gate) refused, by index, each account as it stood. */
export function rejectedLegs(
  cancellation: Cancellation,
  entries: readonly Pick<LedgerEntry, 'accountId'>[],
): RejectedLeg[] {
  const legs: RejectedLeg[] = [];
  entries.forEach(({ accountId }, index) => {
    if (entries.findIndex((entry) => entry.accountId === accountId) !== index) return;
    if (cancellation.accounts.has(accountId)) {
      legs.push({ index, account: cancellation.accounts.get(accountId) });
    } else if (cancellation.gates.has(accountId)) {
      legs.push({ index, account: cancellation.gates.get(accountId), viaGate: true });
    }
  });
  return legs;
}

export function postingRejection(
  cancellation: Cancellation,
  accountId: string,
): PostingRejection | undefined {
  const { accounts, gates } = cancellation;
  if (accounts.has(accountId))
    return { kind: 'account_rejected', account: accounts.get(accountId) };
  if (gates.has(accountId)) {
    return { kind: 'account_rejected', account: gates.get(accountId), viaGate: true };
  }
  if (cancellation.payments.size > 0) return { kind: 'payment_id_taken' };
  return undefined;
}

export function legsRejection(
  cancellation: Cancellation,
  entries: readonly Pick<LedgerEntry, 'accountId'>[],
): LegsRejection | undefined {
  const legs = rejectedLegs(cancellation, entries);
  if (legs.length > 0) return { kind: 'legs_rejected', legs };
  if (cancellation.payments.size > 0) return { kind: 'payment_id_taken' };
  return undefined;
}

/** A cancelled reversal: the legs whose accounts refused, and the original's guard if it failed. */
export function reversalRejection(
  cancellation: Cancellation,
  entries: readonly Pick<LedgerEntry, 'accountId'>[],
): ReversalRejection | undefined {
  const legs = rejectedLegs(cancellation, entries);
  const guardFailed = cancellation.failed.has('original');
  if (legs.length === 0 && !guardFailed) return undefined;
  const original = cancellation.failed.get('original');
  return {
    kind: 'reversal_rejected',
    legs,
    ...(guardFailed ? { reversedAmount: Number(original?.reversedAmount ?? 0) } : {}),
  };
}
