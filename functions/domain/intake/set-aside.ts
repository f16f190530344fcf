import type { PendingCredit } from '../accounts/pending-credits';
import type { Finding } from '../reconciliation/model';

/**
 * The reconciliation finding of a credit set aside (docs/contract.md §36): written in the
 * set-aside's own transaction, so every credit set aside is a finding the operator lists with
 * `reconcile --findings` (docs/operations.md, "Set-aside credits"). Nothing moved: `expected`
 * is the credit's amount to post, `actual` the refusal that keeps it from posting.
 */
export function setAsideFinding(credit: PendingCredit, reason: string, at: string): Finding {
  const { entry, acceptedAt } = credit;
  return {
    accountId: entry.accountId,
    check: 'set_aside_credit',
    entryId: entry.id,
    expected: entry.amount,
    actual: reason,
    detectedAt: at,
    detail: `credit ${entry.id} of ${entry.amount} ${entry.currency} (accepted ${acceptedAt}, effective ${entry.effectiveAt}) can never post (${reason}): set aside; resolve it with \`intake resolve\``,
  };
}
