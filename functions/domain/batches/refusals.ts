import { type AccountRecord, signedAmount } from '../accounts/model';
import { explainLegsRejection, type MovementLeg, type RejectedLeg } from '../movements/legs';
import { explainAccountRejection } from '../movements/rejections';
import { type DomainError, InternalError } from '../shared/errors';
import type { PlannedMovement } from './model';

/**
 * The first refused operation of each failed account, replaying the batch's changes in request
 * order on the account as it stood (docs/contract.md §25: each sees the ones before it), then
 * explained as the single route explains it: one refusing leg, or a movement's legs ranked.
 */
export function firstRefusals(
  planned: readonly PlannedMovement[],
  live: readonly number[],
  accounts: ReadonlyMap<string, AccountRecord | undefined>,
): Map<number, DomainError> {
  const refused = new Map<number, RejectedLeg[]>();
  for (const [accountId, stood] of accounts) {
    let state = stood;
    for (const index of live) {
      const legs = (planned[index] as PlannedMovement).legs;
      const legIndex = legs.findIndex((leg) => leg.entry.accountId === accountId);
      const leg = legs[legIndex];
      if (!leg) continue;
      if (!state || refusal(state, leg)) {
        refused.set(index, [...(refused.get(index) ?? []), { index: legIndex, account: state }]);
        break;
      }
      const delta = signedAmount(leg.entry);
      state = { ...state, balance: state.balance + delta, available: state.available + delta };
    }
  }
  return new Map(
    [...refused].map(([index, legs]) => {
      const movement = planned[index] as PlannedMovement;
      const only = movement.legs.length === 1 ? movement.legs[0] : undefined;
      const error = only
        ? explainAccountRejection(legs[0]?.account, only.guard)
        : explainLegsRejection({ kind: 'legs_rejected', legs }, movement.legs);
      return [index, error];
    }),
  );
}

/** The rule a leg breaks on the account as it stands, if any. */
function refusal(account: AccountRecord, leg: MovementLeg): DomainError | undefined {
  const error = explainAccountRejection(account, leg.guard);
  return error instanceof InternalError ? undefined : error;
}
