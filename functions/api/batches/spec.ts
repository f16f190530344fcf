import { MAX_BATCH_OPERATIONS, MAX_COALESCED_OPERATIONS } from '../../contract/batches';
import { MAX_TRANSACTION_ITEMS } from '../../contract/events';
import { OPERATION_IDS } from '../../domain/idempotency/operations';
import { Batch, CreateBatchBody } from '../../schemas/batches';
import { named, type RouteDocs, type RouteTable } from '../spec';

/** Many operations in one request, each exactly once (docs/contract.md §25). */
export const BATCH_ROUTES = {
  createBatch: {
    method: 'POST',
    path: '/v1/batches',
    idempotency: OPERATION_IDS.createBatch,
    tag: 'batches',
    body: named('CreateBatch', CreateBatchBody),
    response: {
      status: 200,
      body: named('Batch', Batch),
    },
    problems: ['batch_too_large', 'batch_rejected'],
  },
} as const satisfies RouteTable;

/** What the OpenAPI document says of each route of BATCH_ROUTES (a function, so that nothing of it is evaluated, or bundled, where only the routes are used: the document's generator calls it). */
export const batchRouteDocs = (): RouteDocs<typeof BATCH_ROUTES> => ({
  createBatch: {
    summary: 'Apply up to 100 operations in one request',
    description:
      `1 … ${MAX_BATCH_OPERATIONS} credits, debits, transfers and ledger transactions, each ` +
      "exactly the single route's request under its own key, claimed in that route's scope: " +
      'an operation retried alone, or in another batch, replays. independent: each succeeds or ' +
      'fails alone, in request order; postings of one account share transactions (at most ' +
      `${MAX_COALESCED_OPERATIONS}). atomic: all commit in ONE transaction (at most ` +
      `${MAX_TRANSACTION_ITEMS} items) or none does. A result of 503 or 409 ` +
      'idempotency_key_in_use may be retried under its own key. A copy of an independent batch ' +
      'sent while another with its key runs answers 409 idempotency_key_in_use: retry it.',
    response: 'One result per operation, in request order: what the single route would answer',
  },
});
