import type { JournalService } from '../../domain/journal/service';
import type { StatementService } from '../../domain/statements/service';
import type { RouteHandlers } from '../router';
import type { JOURNAL_ROUTES } from './spec';

/**
 * The journal and balances (docs/contract.md §15): the spec parsed the input. Balances as of a
 * commit time come from the journal; by effective time (§26), from the statements feature.
 */
export function journalHandlers(
  service: JournalService,
  statements: StatementService,
  clock: () => Date,
): RouteHandlers<typeof JOURNAL_ROUTES> {
  return {
    listJournal: ({ principal, params, query }) =>
      service.listJournal(principal, params.accountId, query.afterSequence, query.limit),
    getBalances: ({ principal, params, query }) =>
      query.effectiveAt === undefined
        ? service.balancesAsOf(principal, params.accountId, query.asOf ?? '', clock())
        : statements.effectiveBalance(principal, params.accountId, query.effectiveAt, clock()),
  };
}
