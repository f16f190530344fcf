import { MAX_SEARCH_FILTERS } from '../../contract/search';
import { TransactionSearchPage, TransactionSearchQuery } from '../../schemas/search';
import { named, type RouteDocs, type RouteTable } from '../spec';

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
    tag: 'search',
    query: TransactionSearchQuery,
    response: {
      status: 200,
      body: named('TransactionSearchPage', TransactionSearchPage),
    },
  },
} as const satisfies RouteTable;

/** What the OpenAPI document says of each route of SEARCH_ROUTES (a function, so that nothing of it is evaluated, or bundled, where only the routes are used: the document's generator calls it). */
export const searchRouteDocs = (): RouteDocs<typeof SEARCH_ROUTES> => ({
  searchTransactions: {
    summary: 'Find entries by metadata, reference or payment id',
    description:
      "Entries of the caller's accounts (credits, debits, transfer and ledger legs, captures; " +
      `reversals by reference only; pending credits once posted). ${FILTERS}, reference, ` +
      `paymentId; at least one. ${EVENTUAL}`,
    response: 'Entries carrying every pair, newest first',
  },
});
