import { accountRouteDocs } from '../accounts/spec';
import { batchRouteDocs } from '../batches/spec';
import { callbackRouteDocs } from '../callbacks/spec';
import { exportRouteDocs } from '../exports/spec';
import { healthRouteDocs } from '../health/spec';
import { holdRouteDocs } from '../holds/spec';
import { journalRouteDocs } from '../journal/spec';
import { ledgerTransactionRouteDocs } from '../ledger-transactions/spec';
import { monitorRouteDocs } from '../monitors/spec';
import { reversalRouteDocs } from '../reversals/spec';
import type { Routes } from '../routes';
import { searchRouteDocs } from '../search/spec';
import type { RouteDoc, RouteDocs } from '../spec';
import { statementRouteDocs } from '../statements/spec';
import { transferRouteDocs } from '../transfers/spec';
import { webhookDeliveryRouteDocs, webhookEndpointRouteDocs } from '../webhooks/spec';
import { documentRouteDocs } from './spec';

/** The prose of every route (api/routes.ts), for the OpenAPI document's generator only. */
export const ROUTE_DOCS: RouteDocs<Routes> = {
  ...accountRouteDocs(),
  ...journalRouteDocs(),
  ...monitorRouteDocs(),
  ...statementRouteDocs(),
  ...exportRouteDocs(),
  ...transferRouteDocs(),
  ...holdRouteDocs(),
  ...ledgerTransactionRouteDocs(),
  ...reversalRouteDocs(),
  ...batchRouteDocs(),
  ...searchRouteDocs(),
  ...callbackRouteDocs(),
  ...webhookEndpointRouteDocs(),
  ...webhookDeliveryRouteDocs(),
  ...healthRouteDocs(),
  ...documentRouteDocs(),
};

/** The prose of a listed route. */
export function routeDoc(operationId: string): RouteDoc {
  const doc = (ROUTE_DOCS as Readonly<Record<string, RouteDoc>>)[operationId];
  if (!doc) throw new Error(`route ${operationId} has no docs`);
  return doc;
}
