import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_ROUTES } from '../../../functions/api/accounts/spec';
import { BATCH_ROUTES } from '../../../functions/api/batches/spec';
import { CALLBACK_ROUTES } from '../../../functions/api/callbacks/spec';
import { DOCUMENT_ROUTES } from '../../../functions/api/document/spec';
import { EXPORT_ROUTES } from '../../../functions/api/exports/spec';
import { HEALTH_ROUTES } from '../../../functions/api/health/spec';
import { HOLD_ROUTES } from '../../../functions/api/holds/spec';
import { JOURNAL_ROUTES } from '../../../functions/api/journal/spec';
import { LEDGER_TRANSACTION_ROUTES } from '../../../functions/api/ledger-transactions/spec';
import { MONITOR_ROUTES } from '../../../functions/api/monitors/spec';
import { REVERSAL_ROUTES } from '../../../functions/api/reversals/spec';
import { ROUTE_LIST } from '../../../functions/api/routes';
import { SEARCH_ROUTES } from '../../../functions/api/search/spec';
import { problemsOf, routeKey } from '../../../functions/api/spec';
import { STATEMENT_ROUTES } from '../../../functions/api/statements/spec';
import { TRANSFER_ROUTES } from '../../../functions/api/transfers/spec';
import {
  WEBHOOK_DELIVERY_ROUTES,
  WEBHOOK_ENDPOINT_ROUTES,
} from '../../../functions/api/webhooks/spec';
import { OPERATION_IDS } from '../../../functions/domain/idempotency/operations';

/**
 * BOTH ids of every route, written out on purpose (docs/contract.md §4, §14): the idempotency
 * operation id is part of every stored key, the OpenAPI operationId is what the typed client
 * names. Neither may ever change; a new route adds a line here.
 */
const FROZEN_IDS = {
  createAccount: ['POST /v1/accounts', 'POST /v1/accounts'],
  getAccount: ['GET /v1/accounts/{accountId}', undefined],
  postTransaction: [
    'POST /v1/accounts/{accountId}/transactions',
    'POST /v1/accounts/{accountId}/transactions',
  ],
  listTransactions: ['GET /v1/accounts/{accountId}/transactions', undefined],
  getTransaction: ['GET /v1/accounts/{accountId}/transactions/{entryId}', undefined],
  listPendingCredits: ['GET /v1/accounts/{accountId}/pending-credits', undefined],
  changeSettings: [
    'POST /v1/accounts/{accountId}/settings',
    'POST /v1/accounts/{accountId}/settings',
  ],
  listEventSources: ['GET /v1/accounts/{accountId}/event-sources', undefined],
  listJournal: ['GET /v1/accounts/{accountId}/journal', undefined],
  getBalances: ['GET /v1/accounts/{accountId}/balances', undefined],
  createMonitor: [
    'POST /v1/accounts/{accountId}/monitors',
    'POST /v1/accounts/{accountId}/monitors',
  ],
  listMonitors: ['GET /v1/accounts/{accountId}/monitors', undefined],
  getMonitor: ['GET /v1/accounts/{accountId}/monitors/{monitorId}', undefined],
  deleteMonitor: ['DELETE /v1/accounts/{accountId}/monitors/{monitorId}', undefined],
  createExport: ['POST /v1/accounts/{accountId}/exports', 'POST /v1/accounts/{accountId}/exports'],
  getTask: ['GET /v1/tasks/{taskId}', undefined],
  getTaskResult: ['GET /v1/tasks/{taskId}/result', undefined],
  rerunTask: ['POST /v1/tasks/{taskId}/reruns', 'POST /v1/tasks/{taskId}/reruns'],
  createTransfer: ['POST /v1/transfers', 'POST /v1/transfers'],
  createBatch: ['POST /v1/batches', 'POST /v1/batches'],
  getTransfer: ['GET /v1/transfers/{transferId}', undefined],
  placeHold: ['POST /v1/accounts/{accountId}/holds', 'POST /v1/accounts/{accountId}/holds'],
  listHolds: ['GET /v1/accounts/{accountId}/holds', undefined],
  getHold: ['GET /v1/holds/{holdId}', undefined],
  captureHold: ['POST /v1/holds/{holdId}/captures', 'POST /v1/holds/{holdId}/captures'],
  voidHold: ['POST /v1/holds/{holdId}/voids', 'POST /v1/holds/{holdId}/voids'],
  closeAccount: ['POST /v1/accounts/{accountId}/close', 'POST /v1/accounts/{accountId}/close'],
  createLedgerTransaction: ['POST /v1/ledger-transactions', 'POST /v1/ledger-transactions'],
  getLedgerTransaction: ['GET /v1/ledger-transactions/{ledgerTransactionId}', undefined],
  reverseEntry: [
    'POST /v1/accounts/{accountId}/transactions/{entryId}/reversals',
    'POST /v1/accounts/{accountId}/transactions/{entryId}/reversals',
  ],
  reverseTransfer: [
    'POST /v1/transfers/{transferId}/reversals',
    'POST /v1/transfers/{transferId}/reversals',
  ],
  reverseLedgerTransaction: [
    'POST /v1/ledger-transactions/{ledgerTransactionId}/reversals',
    'POST /v1/ledger-transactions/{ledgerTransactionId}/reversals',
  ],
  getStatement: ['GET /v1/accounts/{accountId}/statement', undefined],
  closePeriod: [
    'POST /v1/accounts/{accountId}/period-closes',
    'POST /v1/accounts/{accountId}/period-closes',
  ],
  postCallback: ['POST /v1/callbacks/{applicationId}', undefined],
  createWebhookEndpoint: ['POST /v1/webhook-endpoints', 'POST /v1/webhook-endpoints'],
  listWebhookEndpoints: ['GET /v1/webhook-endpoints', undefined],
  getWebhookEndpoint: ['GET /v1/webhook-endpoints/{endpointId}', undefined],
  updateWebhookEndpoint: ['PATCH /v1/webhook-endpoints/{endpointId}', undefined],
  rotateWebhookSecret: [
    'POST /v1/webhook-endpoints/{endpointId}/secret-rotations',
    'POST /v1/webhook-endpoints/{endpointId}/secret-rotations',
  ],
  deleteWebhookEndpoint: ['DELETE /v1/webhook-endpoints/{endpointId}', undefined],
  listWebhookDeliveries: ['GET /v1/webhook-endpoints/{endpointId}/deliveries', undefined],
  retryWebhookDelivery: [
    'POST /v1/webhook-endpoints/{endpointId}/deliveries/{deliveryId}/retry',
    undefined,
  ],
  getHealth: ['GET /v1/health', undefined],
  getOpenApi: ['GET /v1/openapi.json', undefined],
  getProblemType: ['GET /v1/problems/{code}', undefined],
  searchAccounts: ['GET /v1/accounts', undefined],
  searchTransactions: ['GET /v1/transactions', undefined],
};

const FUNCTIONS = join(import.meta.dirname, '..', '..', '..', 'functions');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('route specs', () => {
  it('hold both frozen ids of every route: OpenAPI operationId → [route, idempotency id]', () => {
    const actual = Object.fromEntries(
      ROUTE_LIST.map((spec) => [spec.operationId, [routeKey(spec), spec.idempotency]]),
    );
    expect(actual).toEqual(FROZEN_IDS);
  });

  it('give every OPERATION_IDS value to exactly one idempotent POST', () => {
    const used = ROUTE_LIST.flatMap((spec) => (spec.idempotency ? [spec.idempotency] : []));
    expect([...used].sort()).toEqual(Object.values(OPERATION_IDS).sort());
    for (const spec of ROUTE_LIST.filter((s) => s.idempotency)) {
      expect(spec.method, routeKey(spec)).toBe('POST');
      expect(spec.public, routeKey(spec)).toBeUndefined();
      expect(spec.body, routeKey(spec)).toBeDefined();
    }
  });

  it('lose no route when the feature tables are merged (operationIds are unique)', () => {
    const tables = [
      ACCOUNT_ROUTES,
      JOURNAL_ROUTES,
      MONITOR_ROUTES,
      STATEMENT_ROUTES,
      EXPORT_ROUTES,
      TRANSFER_ROUTES,
      HOLD_ROUTES,
      LEDGER_TRANSACTION_ROUTES,
      REVERSAL_ROUTES,
      BATCH_ROUTES,
      SEARCH_ROUTES,
      CALLBACK_ROUTES,
      WEBHOOK_ENDPOINT_ROUTES,
      WEBHOOK_DELIVERY_ROUTES,
      HEALTH_ROUTES,
      DOCUMENT_ROUTES,
    ];
    const total = tables.reduce((sum, table) => sum + Object.keys(table).length, 0);
    expect(ROUTE_LIST).toHaveLength(total);
    expect(new Set(ROUTE_LIST.map(routeKey)).size).toBe(total);
  });

  it('give each public route a cdk-nag reason and a throttle, and only those', () => {
    const publicRoutes = ROUTE_LIST.filter((spec) => spec.public);
    expect(publicRoutes.map(routeKey).sort()).toEqual([
      'GET /v1/health',
      'GET /v1/openapi.json',
      'GET /v1/problems/{code}',
      'POST /v1/callbacks/{applicationId}',
    ]);
    for (const spec of publicRoutes) {
      expect(spec.public?.reason.length, routeKey(spec)).toBeGreaterThan(100);
      expect(spec.public?.throttle, routeKey(spec)).toBeTruthy();
    }
  });

  it('imply what every route of a kind answers: 401/503 behind a principal, the key checks for commands', () => {
    const codes = (operationId: string) => {
      const spec = ROUTE_LIST.find((s) => s.operationId === operationId);
      if (!spec) throw new Error(`no route ${operationId}`);
      return problemsOf(spec);
    };
    expect(codes('getAccount')).toEqual(
      expect.arrayContaining(['unauthenticated', 'validation_failed', 'not_found', 'internal']),
    );
    expect(codes('createAccount')).toEqual(
      expect.arrayContaining(['idempotency_key_missing', 'idempotency_key_in_use']),
    );
    expect(codes('createAccount')).not.toContain('not_found');
    expect(codes('postCallback')).not.toContain('unauthenticated');
    expect(codes('getOpenApi')).toEqual(['internal']);
  });

  it('write each route template in one file under functions/ (its spec), besides the operation ids', () => {
    const files = sources(FUNCTIONS).map((path) => ({
      name: relative(FUNCTIONS, path),
      // Code only: comments may name a route.
      text: readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
        .join('\n'),
    }));
    for (const spec of ROUTE_LIST) {
      const quoted = [`'${spec.path}'`, `\`${spec.path}\``, `'${routeKey(spec)}'`];
      const holders = files
        .filter((file) => file.name !== join('domain', 'idempotency', 'operations.ts'))
        .filter((file) => quoted.some((q) => file.text.includes(q)))
        .map((file) => file.name);
      expect(holders, routeKey(spec)).toEqual([join('api', spec.tag, 'spec.ts')]);
    }
  });
});
