import { DomainError, LedgerRejection } from '../shared/errors';

/** Reversals of one movement adding up to more than it moved (docs/contract.md §16). */
export class ReversalExceedsOriginalError extends LedgerRejection {
  constructor(left: number) {
    super('reversal_exceeds_original', `At most ${left} of it is left to reverse.`);
  }
}

/** A reversal, a hold or a kind of movement §16 does not list. */
export class NotReversibleError extends LedgerRejection {
  constructor(what: string) {
    super('not_reversible', `${what} cannot be reversed.`);
  }
}

/**
 * A reversal of a credit still pending in a deferred account (docs/contract.md §16, §24): the
 * entry exists but holds no posted money yet. Not recorded under the key (nothing reached the
 * ledger), so a retry once the folder posted it — within seconds — reverses it.
 */
export class CreditPendingError extends DomainError {
  constructor() {
    super(
      'credit_pending',
      'The credit is still pending in a deferred account; retry once it is posted.',
    );
  }
}
