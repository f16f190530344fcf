import { OPERATION_IDS } from '../../domain/idempotency/operations';
import { Account, AccountPath } from '../../schemas/accounts';
import { PeriodCloseBody, Statement, StatementQuery } from '../../schemas/statements';
import { named, type RouteDocs, type RouteTable } from '../spec';

/** Statements by effective time and period closes (docs/contract.md §26). */
export const STATEMENT_ROUTES = {
  getStatement: {
    method: 'GET',
    path: '/v1/accounts/{accountId}/statement',
    tag: 'statements',
    params: AccountPath,
    query: StatementQuery,
    response: {
      status: 200,
      body: named('Statement', Statement),
    },
  },
  closePeriod: {
    method: 'POST',
    path: '/v1/accounts/{accountId}/period-closes',
    idempotency: OPERATION_IDS.closePeriod,
    tag: 'statements',
    params: AccountPath,
    body: named('PeriodClose', PeriodCloseBody),
    response: {
      status: 200,
      body: named('Account', Account),
    },
    problems: ['period_already_closed', 'pending_credits'],
  },
} as const satisfies RouteTable;

/** What the OpenAPI document says of each route of STATEMENT_ROUTES (a function, so that nothing of it is evaluated, or bundled, where only the routes are used: the document's generator calls it). */
export const statementRouteDocs = (): RouteDocs<typeof STATEMENT_ROUTES> => ({
  getStatement: {
    summary: "An account's statement of an effective-time window",
    description:
      'The posted entries with from ≤ effectiveAt < to, by effectiveAt then commit order, one ' +
      'page at a time; openingBalance, the totals and closingBalance cover the whole window ' +
      'whatever the page (closing = opening + credits − debits). A window is at most 366 days; ' +
      "400 for one that starts before the account's effective history. Owners only (404 for " +
      'anyone else, journal readers included).',
    response: 'The window: balances, totals and a page of entries',
  },
  closePeriod: {
    summary: "Close an account's books through an instant",
    description:
      'Sets closedThrough: later movements effective at or before it are refused with ' +
      '409 period_closed, so statements and effective balances up to it never change. ' +
      'Monotonic: through after now → 400; before the current closedThrough → ' +
      '409 period_already_closed (the same instant again answers the account as it is).',
    response: 'The account with its closedThrough',
  },
});
