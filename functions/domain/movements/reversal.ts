import type { LedgerEntry } from '../accounts/model';
import { ReversalExceedsOriginalError } from '../accounts/reversal-errors';
import type { OriginalLocation, Reversal, Reversible } from '../accounts/reversal-record';
import { opposite } from '../accounts/reversal-record';
import type { DomainError } from '../shared/errors';
import { explainLegsRejection, legGuard, type MovementLeg, type RejectedLeg } from './legs';

/** What the reversal's ONE transaction writes besides its claim. */
export interface ReversalWrite {
  /** Whose `reversedAmount` grows by `reversing`, only while it stays ≤ `amount` − `reversing`. */
  readonly original: {
    readonly location: OriginalLocation;
    readonly amount: number;
    readonly reversing: number;
  };
  readonly legs: readonly MovementLeg[];
}

/**
 * A cancelled reversal's facts: the legs whose accounts refused (as they stood), and the
 * original's `reversedAmount` when its guard failed (undefined: it held).
 */
export interface ReversalRejection {
  readonly kind: 'reversal_rejected';
  readonly legs: readonly RejectedLeg[];
  readonly reversedAmount?: number;
}

/**
 * The reversal's legs: each original leg moved back — the whole leg for a whole reversal, else
 * `amount` (transfers and entries move the same amount on every leg). A leg that gives money
 * back is guarded on what its account may draw on; one that gets it back on the cap (§16).
 */
export function reversalLegs(
  original: Reversible,
  reversal: Reversal,
  ownerId: string,
  newId: () => string,
): MovementLeg[] {
  return original.legs.map((leg) => {
    const direction = opposite(leg.direction);
    const entry: LedgerEntry = {
      id: newId(),
      accountId: leg.accountId,
      type: 'reversal',
      amount: original.wholeOnly ? leg.amount : reversal.amount,
      currency: leg.currency,
      ...(reversal.reference === undefined ? {} : { reference: reversal.reference }),
      ...original.links(leg.accountId),
      reversalOf: reversal.reversalOf,
      reversalId: reversal.id,
      direction,
      origin: 'http',
      createdAt: reversal.createdAt,
      // A reversal counts when it is written (docs/contract.md §26 lists no effectiveAt for it).
      effectiveAt: reversal.createdAt,
    };
    return { entry, guard: legGuard(entry, direction, ownerId) };
  });
}

/**
 * Why a reversal was refused (docs/contract.md §16): an account not found first (not
 * recorded), then the original's guard — `moved` when the amount was left to default and
 * something is still left (another reversal took part of it: decide again) — then the
 * accounts (closed, funds, cap).
 */
export function explainReversalRejection(
  rejected: ReversalRejection,
  write: ReversalWrite,
  defaulted: boolean,
): DomainError | 'moved' {
  const byAccounts: DomainError | undefined =
    rejected.legs.length > 0
      ? explainLegsRejection({ kind: 'legs_rejected', legs: rejected.legs }, write.legs)
      : undefined;
  if (byAccounts?.code === 'not_found') return byAccounts;
  if (rejected.reversedAmount !== undefined) {
    const left = write.original.amount - rejected.reversedAmount;
    if (defaulted && left > 0) return 'moved';
    return new ReversalExceedsOriginalError(left);
  }
  if (!byAccounts) throw new Error('a reversal was refused without a reason');
  return byAccounts;
}
