import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { type TableComposition, tableOptions } from '../composition';
import type { ServiceConfig } from '../config';
import type { ResultObjectPort } from '../core/export-result';
import { SettledResponseCache, withSettledResponses } from '../core/settled-responses';
import { createS3ResultObjects } from '../objects/s3-result-objects';
import { noMetrics } from '../observability/metrics';
import type { CallbackSecrets } from '../secrets/callback-secrets';
import { createHoldStore } from '../store/hold-store';
import { createLedgerStore } from '../store/ledger-store';
import { createTaskStore } from '../store/task-store';
import { createTransferStore } from '../store/transfer-store';
import { createHttpApp } from './app';
import type { HttpHandler } from './types';

export interface HttpComposition extends TableComposition<ServiceConfig> {
  readonly callbackSecrets: CallbackSecrets;
  /**
   * Export results (HEAD, presigned GETs in `config.exportBucket`). @default the bucket on AWS,
   * in `AWS_REGION`, with the function's credentials
   */
  readonly results?: ResultObjectPort;
  readonly newId?: () => string;
}

/** The HTTP function (ledger, transfers, holds, tasks, results, callbacks) on DynamoDB and S3. */
export function composeHttpHandler(options: HttpComposition): HttpHandler {
  const table = tableOptions(options);
  const tasks = createTaskStore(table);
  const ledger = createLedgerStore(table);
  return createHttpApp({
    // One cache per composition, i.e. per Lambda instance or local server; off with
    // IDEMPOTENCY_LOCAL_CACHE=off (docs/contract.md §4).
    ledger:
      options.config.idempotencyLocalCache === false
        ? ledger
        : withSettledResponses(ledger, new SettledResponseCache()),
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
    callbackSecrets: options.callbackSecrets,
    config: options.config,
    clock: options.clock,
    newId: options.newId,
    log: options.log,
    metrics: options.metrics ?? noMetrics,
  });
}
