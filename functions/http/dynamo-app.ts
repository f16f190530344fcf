import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { countRetry, noMetrics } from '../observability/metrics';
import { createHoldStore } from '../store/hold-store';
import { createLedgerStore } from '../store/ledger-store';
import { createTaskStore } from '../store/task-store';
import type { RetryPolicy } from '../store/transact';
import { createTransferStore } from '../store/transfer-store';
import { createHttpApp, type HttpAppDeps } from './app';
import type { HttpHandler } from './types';

/** The app's dependencies, with DynamoDB stores in place of the ports. */
export interface DynamoHttpAppOptions
  extends Omit<HttpAppDeps, 'ledger' | 'tasks' | 'callbacks' | 'transfers' | 'holds'> {
  readonly client: DynamoDBClient;
  readonly retry?: Partial<RetryPolicy>;
}

/** The HTTP app on its DynamoDB stores: one wiring for Lambda, the local stack and tests. */
export function createDynamoHttpApp(options: DynamoHttpAppOptions): HttpHandler {
  const metrics = options.metrics ?? noMetrics;
  const store = {
    client: options.client,
    tableName: options.config.tableName,
    retry: { onRetry: countRetry(metrics), ...options.retry },
  };
  const tasks = createTaskStore(store);
  return createHttpApp({
    ...options,
    ledger: createLedgerStore(store),
    tasks,
    callbacks: tasks,
    transfers: createTransferStore(store),
    holds: createHoldStore(store),
    metrics,
  });
}
