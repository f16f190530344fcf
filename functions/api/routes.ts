import { ACCOUNT_ROUTES } from './accounts/spec';
import { BATCH_ROUTES } from './batches/spec';
import { CALLBACK_ROUTES } from './callbacks/spec';
import { DOCUMENT_ROUTES } from './document/spec';
import { EXPORT_ROUTES } from './exports/spec';
import { HEALTH_ROUTES } from './health/spec';
import { HOLD_ROUTES } from './holds/spec';
import { JOURNAL_ROUTES } from './journal/spec';
import { LEDGER_TRANSACTION_ROUTES } from './ledger-transactions/spec';
import { MONITOR_ROUTES } from './monitors/spec';
import { REVERSAL_ROUTES } from './reversals/spec';
import { SEARCH_ROUTES } from './search/spec';
import { type ListedRoute, listRoutes } from './spec';
import { STATEMENT_ROUTES } from './statements/spec';
import { TRANSFER_ROUTES } from './transfers/spec';
import { WEBHOOK_DELIVERY_ROUTES, WEBHOOK_ENDPOINT_ROUTES } from './webhooks/spec';

/**
 * Every route the HTTP function serves, keyed by OpenAPI operationId: the router, the OpenAPI
 * document and the API Gateway routes (lib/constructs/http/ledger-http-api.ts) walk this one table.
 */
export const ROUTES = {
  ...ACCOUNT_ROUTES,
  ...JOURNAL_ROUTES,
  ...MONITOR_ROUTES,
  ...STATEMENT_ROUTES,
  ...EXPORT_ROUTES,
  ...TRANSFER_ROUTES,
  ...HOLD_ROUTES,
  ...LEDGER_TRANSACTION_ROUTES,
  ...REVERSAL_ROUTES,
  ...BATCH_ROUTES,
  ...SEARCH_ROUTES,
  ...CALLBACK_ROUTES,
  ...WEBHOOK_ENDPOINT_ROUTES,
  ...WEBHOOK_DELIVERY_ROUTES,
  ...HEALTH_ROUTES,
  ...DOCUMENT_ROUTES,
};

export type Routes = typeof ROUTES;

/** The routes as a list, in document order. */
export const ROUTE_LIST: readonly ListedRoute[] = listRoutes(ROUTES);
