import { isCreditDirection, type LedgerEntry, signedAmount } from '../../domain/accounts/model';
import type { AccountChange } from '../../domain/journal/model';
import type { EntryGuard } from '../../domain/movements/guard';
import type { IntakeRoutes } from '../../domain/movements/intake';
import { requestPosition } from '../accounts/effective-history';
import type { TransactPart } from '../table/transact';

/**
 * A money transaction before it is items (docs/architecture.md "One write path"): what each
 * transport hands the one composer (`compose.ts`). Every money transaction — a single request,
 * an SQS run, a batch chunk, a folder posting, a capture, a reversal, a hold, the export fee —
 * is a plan of movements, each a list of legs and its own items around them.
 */

/** What an account must satisfy for a leg; the folder's posting guards none of it. */
export type LegCondition = Partial<EntryGuard>;

/** One change of money on one account. */
export interface PlanLeg {
  readonly accountId: string;
  /** The journal's descriptor (docs/contract.md §15): its deltas move the account. */
  readonly change: AccountChange;
  readonly guard: LegCondition;
  /**
   * The entry the leg lists (its item, its pointer, its paymentId item). A credit-direction
   * leg with an entry into an account the plan's intake names is routed to its gate (§24).
   */
  readonly entry?: LedgerEntry;
  /** The entry's place in its request (`requestPosition`, §36). @default its leg's index */
  readonly position?: number;
}

/** One movement: its legs and the items it writes before and after them (claims, records). */
export interface PlannedMoney {
  readonly legs: readonly PlanLeg[];
  readonly before?: readonly TransactPart<string>[];
  readonly after?: readonly TransactPart<string>[];
}

export interface MoneyPlan {
  readonly movements: readonly PlannedMoney[];
  /** The deferred accounts whose credit-direction legs go through intake (§24). */
  readonly intake?: IntakeRoutes;
  /** The folder posting pending credits: every leg goes to its account item (§24). */
  readonly postsPendingCredits?: boolean;
  /** Items before the accounts (a batch's own claim) and after every movement (sequences). */
  readonly head?: readonly TransactPart<string>[];
  readonly tail?: readonly TransactPart<string>[];
}

/**
 * The journal's descriptor of an entry's leg (docs/contract.md §15): kind = the entry's type
 * (`credit`/`debit`, `transfer_out`/`transfer_in`, `ledger_debit`/`ledger_credit`, `reversal`),
 * the entry's id and the ids of what it belongs to; a reversal's `reversalOf` is the reversed
 * original's id.
 */
export function legChange(entry: LedgerEntry, delta: number): AccountChange {
  return {
    kind: entry.type,
    balanceDelta: delta,
    availableDelta: delta,
    at: entry.createdAt,
    entryId: entry.id,
    effectiveAt: entry.effectiveAt,
    ...(entry.transferId === undefined ? {} : { transferId: entry.transferId }),
    ...(entry.ledgerTransactionId === undefined
      ? {}
      : { ledgerTransactionId: entry.ledgerTransactionId }),
    ...(entry.reversalOf === undefined ? {} : { reversalOf: entry.reversalOf.id }),
  };
}

/** The leg of an entry: its signed amount moves balance and available alike. */
export const entryLeg = (entry: LedgerEntry, guard: LegCondition): PlanLeg => ({
  accountId: entry.accountId,
  change: legChange(entry, signedAmount(entry)),
  guard,
  entry,
});

/**
 * A movement's legs at their place in its request (docs/contract.md §36): `operation` is the
 * movement's index in its request (a batch's operation, chunked or applied alone; 0 for a single
 * request), each leg's index follows, so a batch's entries, all written at one time, list in
 * request order.
 */
export const placedLegs = (
  operation: number,
  legs: readonly { readonly entry: LedgerEntry; readonly guard: LegCondition }[],
): PlanLeg[] =>
  legs.map(({ entry, guard }, l) => ({
    ...entryLeg(entry, guard),
    position: requestPosition(operation, l),
  }));

/** Where a leg goes: its account item, or the gate of a deferred account (its shard count). */
export function routeOf(leg: PlanLeg, plan: MoneyPlan): number | undefined {
  if (plan.postsPendingCredits || !leg.entry || !isCreditDirection(leg.entry)) return undefined;
  return plan.intake?.get(leg.accountId);
}
