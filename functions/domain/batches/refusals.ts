import { type AccountRecord, isCreditDirection, signedAmount } from '../accounts/model';
import type { IntakeRoutes } from '../movements/intake';
import { explainLegsRejection, type MovementLeg, type RejectedLeg } from '../movements/legs';
import { explainAccountRejection } from '../movements/rejections';
import { type DomainError, InternalError } from '../shared/errors';
import type { PlannedMovement } from './model';

/** The items whose guard failed in a refused write, as they stood (undefined: missing). */
export interface RefusedItems {
  /** Account items, by account id. */
  readonly accounts: ReadonlyMap<string, AccountRecord | undefined>;
  /** Intake gates (docs/contract.md §24), by account id: the gate's copy of its account. */
  readonly gates: ReadonlyMap<string, AccountRecord | undefined>;
}

/** Whether a leg goes through its account's intake gate under these routes. */
export const viaGate = ({ entry }: MovementLeg, intake: IntakeRoutes): boolean =>
  isCreditDirection(entry) && intake.has(entry.accountId);

/**
 * The first operation that fails when the batch's operations are applied one by one in request
 * order (docs/contract.md §25, §31), replayed on the refused items as they stood: each leg is
 * checked against the item it was routed to — a credit into a deferred account against its
 * gate, and it adds nothing spendable (pending money is never spendable, §24); every other leg
 * against its account item, which the legs before it changed. The failing operation is
 * explained as its single route explains it: one refusing leg, or its legs ranked.
 */
export function firstRefusal(
  planned: readonly PlannedMovement[],
  live: readonly number[],
  refused: RefusedItems,
  intake: IntakeRoutes,
): { readonly index: number; readonly error: DomainError } | undefined {
  const states = new Map(refused.accounts);
  for (const index of live) {
    const movement = planned[index] as PlannedMovement;
    const rejected: RejectedLeg[] = [];
    movement.legs.forEach((leg, legIndex) => {
      const { accountId } = leg.entry;
      const gate = viaGate(leg, intake);
      const items = gate ? refused.gates : states;
      if (!items.has(accountId)) return;
      const stood = items.get(accountId);
      if (!stood || refusal(stood, leg)) {
        rejected.push({ index: legIndex, account: stood, viaGate: gate });
      } else if (!gate) {
        const delta = signedAmount(leg.entry);
        states.set(accountId, {
          ...stood,
          balance: stood.balance + delta,
          available: stood.available + delta,
        });
      }
    });
    if (rejected.length > 0) return { index, error: explain(movement, rejected) };
  }
  return undefined;
}

function explain(movement: PlannedMovement, rejected: readonly RejectedLeg[]): DomainError {
  const only = movement.legs.length === 1 ? movement.legs[0] : undefined;
  return only
    ? explainAccountRejection(rejected[0]?.account, only.guard)
    : explainLegsRejection({ kind: 'legs_rejected', legs: rejected }, movement.legs);
}

/** The rule a leg breaks on the item as it stands, if any. */
function refusal(account: AccountRecord, leg: MovementLeg): DomainError | undefined {
  const error = explainAccountRejection(account, leg.guard);
  return error instanceof InternalError ? undefined : error;
}
