import { MAX_SEARCH_FILTERS } from '../../contract/search';
import { TransactionSearchPage, TransactionSearchQuery } from '../../schemas/search';
import { named, type RouteTable } from '../spec';

export const FILTERS =
  `Filters are ANDed, at most ${MAX_SEARCH_FILTERS}, exact and case-sensitive: ` +
  'metadata.<key>=<value> (any metadata key)';
export const EVENTUAL =
  'Newest first; eventually consistent (an index fed by the journal, within seconds); a page ' +
  'may hold fewer than limit items and still have a nextCursor. A repeated query parameter ' +
  'is 400.';

/** Search by metadata, reference and payment id (docs/contract.md §34). */
export const SEARCH_ROUTES = {
  searchTransactions: {
    method: 'GET',
    path: '/v1/transactions',
    summary: 'Find entries by metadata, reference or payment id',
    description:
      "Entries of the caller's accounts (credits, debits, transfer and ledger legs, captures; " +
      `reversals by reference only; pending credits once posted). ${FILTERS}, reference, ` +
      `paymentId; at least one. ${EVENTUAL}`,
    tag: 'search',
    query: TransactionSearchQuery,
    response: {
      status: 200,
      description: 'Entries carrying every pair, newest first',
      body: named('TransactionSearchPage', TransactionSearchPage),
    },
  },
} as const satisfies RouteTable;
