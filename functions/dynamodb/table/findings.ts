import {
  type Finding,
  RECONCILE_CHECKS,
  type ReconcileCheck,
} from '../../domain/reconciliation/model';
import { keys } from './keys';

/**
 * The reconciliation finding item (docs/contract.md §19), written by the reconciler and, for a
 * credit set aside (§36), by the folder in the set-aside's own transaction: one per (account,
 * check, sequence), or per (account, check, setAsideAt, entry) for a finding that names a credit.
 */
export const findingAttributes = (finding: Finding) => ({
  ...keys.reconcileFinding(
    finding.accountId,
    finding.check,
    finding.sequence,
    finding.entryId === undefined ? undefined : `${finding.detectedAt}#${finding.entryId}`,
  ),
  kind: 'reconcile-finding',
  ...finding,
});

function checkOf(value: unknown): ReconcileCheck {
  const check = RECONCILE_CHECKS.find((c) => c === value);
  if (check === undefined) throw new Error(`finding has an unknown check: ${String(value)}`);
  return check;
}

const numberOrText = (value: unknown): number | string =>
  typeof value === 'number' ? value : String(value);

export function toFinding(item: Readonly<Record<string, unknown>>): Finding {
  return {
    accountId: String(item.accountId),
    check: checkOf(item.check),
    expected: numberOrText(item.expected),
    actual: numberOrText(item.actual),
    ...(typeof item.sequence === 'number' ? { sequence: item.sequence } : {}),
    ...(typeof item.entryId === 'string' ? { entryId: item.entryId } : {}),
    detectedAt: String(item.detectedAt),
    detail: String(item.detail),
  };
}
