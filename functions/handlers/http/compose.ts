import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { createHttpApp } from '../../api/app';
import type { HttpHandler } from '../../api/types';
import { noWebhookQueue } from '../../aws/no-webhook-queue';
import { createS3ResultObjects } from '../../aws/s3-result-objects';
import { localWebhookSecurity } from '../../aws/webhook-security';
import { DEFAULT_HEDGED_READ } from '../../contract/hedged-read';
import type { CallbackSecrets } from '../../domain/callbacks/port';
import type { ResultObjectPort } from '../../domain/exports/port';
import { HedgedClaims } from '../../domain/idempotency/hedged-claims';
import {
  SettledResponseCache,
  withHedgedLedger,
  withHedgedMovements,
  withSettledMovements,
  withSettledResponses,
} from '../../domain/movements/settled-responses';
import type { WebhookQueue } from '../../domain/webhooks/delivery-port';
import type { WebhookSecurity } from '../../domain/webhooks/service';
import { createEntryReadStore } from '../../dynamodb/accounts/reads';
import { createSettingsStore } from '../../dynamodb/accounts/settings';
import { createLedgerStore } from '../../dynamodb/accounts/store';
import { createBatchStore } from '../../dynamodb/batches/store';
import { createTaskStore } from '../../dynamodb/exports/store';
import { createHealthStore } from '../../dynamodb/health/store';
import { createHoldStore } from '../../dynamodb/holds/store';
import { createJournalStore } from '../../dynamodb/journal/store';
import { createLedgerTransactionStore } from '../../dynamodb/ledger-transactions/store';
import { createMonitorStore } from '../../dynamodb/monitors/store';
import { createMovementStore } from '../../dynamodb/movements/store';
import { createReversalStore } from '../../dynamodb/reversals/store';
import { createSearchReadStore } from '../../dynamodb/search/read-store';
import { createStatementStore } from '../../dynamodb/statements/store';
import { createTransferStore } from '../../dynamodb/transfers/store';
import { createDeliveryReads } from '../../dynamodb/webhooks/delivery-reads';
import { createWebhookEndpointStore } from '../../dynamodb/webhooks/store';
import { resolveRuntime, type TableComposition, tableOptions } from '../shared/composition';
import type { ServiceConfig } from '../shared/config';

export interface HttpComposition extends TableComposition<ServiceConfig> {
  readonly callbackSecrets: CallbackSecrets;
  /**
   * Export results (HEAD, presigned GETs in `config.exportBucket`). @default the bucket on AWS,
   * in `AWS_REGION`, with the function's credentials
   */
  readonly results?: ResultObjectPort;
  /**
   * Webhook URL checks and secret sealing (docs/contract.md §32). @default the local stack's
   * (loopback http allowed, a fixed key); the Lambda handler passes the deployed one
   */
  readonly webhookSecurity?: WebhookSecurity;
  /** Where manual retries and resumed endpoints go. @default none: those routes answer 503 */
  readonly webhookQueue?: WebhookQueue;
}

/**
 * The HTTP function (ledger, transfers, holds, ledger transactions, reversals, tasks, results,
 * callbacks) on DynamoDB and S3.
 */
export function composeHttpHandler(options: HttpComposition): HttpHandler {
  const runtime = resolveRuntime(options);
  const table = tableOptions(options, runtime.metrics);
  const tasks = createTaskStore(table);
  const store = createLedgerStore(table);
  // One hedge per composition too: a replay that misses the cache is answered by a claim read
  // (IDEMPOTENCY_HEDGED_READ: adaptive by default, always, or off; §4, §36).
  const hedging = options.config.idempotencyHedgedRead ?? DEFAULT_HEDGED_READ;
  const hedge =
    hedging === 'off'
      ? undefined
      : new HedgedClaims((key) => store.findRecord(key), { mode: hedging });
  const ledger = hedge ? withHedgedLedger(store, hedge) : store;
  const movements = hedge
    ? withHedgedMovements(createMovementStore(table), hedge)
    : createMovementStore(table);
  // One cache per composition, i.e. per Lambda instance or local server; off with
  // IDEMPOTENCY_LOCAL_CACHE=off (docs/contract.md §4).
  const cache =
    options.config.idempotencyLocalCache === false ? undefined : new SettledResponseCache();
  return createHttpApp({
    ledger: cache ? withSettledResponses(ledger, cache) : ledger,
    movements: cache ? withSettledMovements(movements, cache) : movements,
    settings: createSettingsStore(table),
    entryReads: createEntryReadStore(table),
    tasks,
    callbacks: tasks,
    results:
      options.results ??
      createS3ResultObjects({
        bucket: options.config.exportBucket,
        region: process.env.AWS_REGION ?? 'us-east-1',
        credentials: defaultProvider(),
      }),
    transfers: createTransferStore(table),
    holds: createHoldStore(table),
    ledgerTransactions: createLedgerTransactionStore(table),
    reversals: createReversalStore(table),
    batches: createBatchStore(table),
    journal: createJournalStore(table),
    monitors: createMonitorStore(table),
    statements: createStatementStore(table),
    health: createHealthStore(table),
    search: createSearchReadStore(table),
    callbackSecrets: options.callbackSecrets,
    webhookEndpoints: createWebhookEndpointStore(table),
    webhookSecurity: options.webhookSecurity ?? localWebhookSecurity(),
    webhookDeliveries: createDeliveryReads(table),
    webhookQueue: options.webhookQueue ?? noWebhookQueue,
    config: options.config,
    ...runtime,
  });
}
