import { LedgerRejection } from '../shared/errors';

/**
 * A movement effective at or before its account's `closedThrough` (docs/contract.md §26): the
 * period is closed, its statements never change. Judged in the write itself; recorded.
 */
export class PeriodClosedError extends LedgerRejection {
  constructor(closedThrough: string, accountId?: string) {
    super(
      'period_closed',
      `${accountId === undefined ? 'The account' : `Account ${accountId}`} is closed through ${closedThrough}; effectiveAt must be later.`,
    );
  }
}

/**
 * A period close while a deferred pending credit (docs/contract.md §24) is effective at or
 * before `through`: it would land in the closed period once posted. Recorded.
 */
export class PendingCreditsError extends LedgerRejection {
  constructor(through: string) {
    super(
      'pending_credits',
      `Pending credits effective at or before ${through} are not posted yet; close the period once they are.`,
    );
  }
}

/** A period close before the account's current `closedThrough` (§26): closes only move on. */
export class PeriodAlreadyClosedError extends LedgerRejection {
  constructor(closedThrough: string) {
    super(
      'period_already_closed',
      `The account is already closed through ${closedThrough}; a period close cannot move it back.`,
    );
  }
}
