import type { JournalService } from '../../domain/journal/service';
import type { RouteHandlers } from '../router';
import type { JOURNAL_ROUTES } from './spec';

/** The journal and as-of balances (docs/contract.md §15): the spec parsed the input. */
export function journalHandlers(
  service: JournalService,
  clock: () => Date,
): RouteHandlers<typeof JOURNAL_ROUTES> {
  return {
    listJournal: ({ principal, params, query }) =>
      service.listJournal(principal, params.accountId, query.afterSequence, query.limit),
    getBalances: ({ principal, params, query }) =>
      service.balancesAsOf(principal, params.accountId, query.asOf, clock()),
  };
}
