import {
  type Finding,
  RECONCILE_CHECKS,
  type ReconcileCheck,
} from '../../domain/reconciliation/model';
import { keys } from '../table/keys';

export { markerItem, RECONCILE_SHARD_COUNT, reconcileShardOf } from '../journal/marker';

export const findingAttributes = (finding: Finding) => ({
  ...keys.reconcileFinding(finding.accountId, finding.check, finding.sequence),
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
    detectedAt: String(item.detectedAt),
    detail: String(item.detail),
  };
}
