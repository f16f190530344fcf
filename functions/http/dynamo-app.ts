import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { ServiceConfig } from '../config';
import { SettledResponseCache, withSettledResponses } from '../core/settled-responses';
import type { Log } from '../observability/log';
import { countRetry, type MetricsPort, noMetrics } from '../observability/metrics';
import type { CallbackSecrets } from '../secrets/callback-secrets';
import { createLedgerStore } from '../store/ledger-store';
import { createTaskStore } from '../store/task-store';
import type { RetryPolicy } from '../store/transact';
import { createHttpApp } from './app';
import type { HttpHandler } from './types';

export interface DynamoHttpAppOptions {
  readonly client: DynamoDBClient;
  readonly config: ServiceConfig;
  readonly callbackSecrets: CallbackSecrets;
  readonly clock?: () => Date;
  readonly newId?: () => string;
  readonly log?: Log;
  readonly metrics?: MetricsPort;
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
  const ledger = createLedgerStore(store);
  return createHttpApp({
    // One cache per composition, i.e. per Lambda instance or local server.
    ledger:
      options.config.idempotencyLocalCache === false
        ? ledger
        : withSettledResponses(ledger, new SettledResponseCache()),
    tasks,
    callbacks: tasks,
    callbackSecrets: options.callbackSecrets,
    config: options.config,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.newId ? { newId: options.newId } : {}),
    ...(options.log ? { log: options.log } : {}),
    metrics,
  });
}
