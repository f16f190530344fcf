import { LedgerRejection } from '../shared/errors';

/** An account that has its 10 balance monitors already (docs/contract.md §28). */
export class MonitorLimitReachedError extends LedgerRejection {
  constructor(limit: number) {
    super(
      'monitor_limit_reached',
      `An account has at most ${limit} monitors; delete one before adding another.`,
    );
  }
}
