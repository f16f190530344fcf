import { randomUUID } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { secretsManagerCallbackSecrets } from '../../aws/secrets-manager';
import type { CallbackSecrets } from '../../domain/callbacks/port';
import { consoleLog } from '../../domain/shared/log';
import { countRetry, type MetricsPort, noMetrics } from '../../domain/shared/metrics';
import type { Runtime } from '../../domain/shared/runtime';
import type { RetryPolicy } from '../../dynamodb/table/transact';
import { fixedCallbackSecrets } from '../../schemas/exports/callbacks';
import type { CallbackSecretsSource, ServiceConfig } from './config';

/**
 * What every function's composition (`functions/handlers/<name>/compose.ts`) takes besides its
 * clients: its configuration and, optionally, the runtime (clock, log, metrics, ids). The Lambda
 * handler, the local stack and the tests all build a function through its composition, so they
 * run the same wiring.
 */
export interface Composition<Config extends ServiceConfig> extends Partial<Runtime> {
  readonly config: Config;
}

/**
 * The runtime's defaults, resolved once per composition: the real clock, JSON lines on the
 * console, no metrics, random UUIDs. Nothing the composition builds has defaults of its own.
 */
export function resolveRuntime(options: Partial<Runtime>): Runtime {
  return {
    clock: options.clock ?? (() => new Date()),
    log: options.log ?? consoleLog,
    metrics: options.metrics ?? noMetrics,
    newId: options.newId ?? randomUUID,
  };
}

/** A composition that writes the ledger table through the store. */
export interface TableComposition<Config extends ServiceConfig> extends Composition<Config> {
  readonly dynamo: DynamoDBClient;
  /** Tests shorten the transaction retry policy; the defaults are the production ones. */
  readonly retry?: Partial<RetryPolicy>;
}

/** The store options of a composition: every transaction retry is counted in `metrics`. */
export function tableOptions(options: TableComposition<ServiceConfig>, metrics: MetricsPort) {
  return {
    client: options.dynamo,
    tableName: options.config.tableName,
    retry: { onRetry: countRetry(metrics), ...options.retry },
  };
}

/** Callback secrets from where the configuration says: Secrets Manager, or a fixed document. */
export function callbackSecretsFrom(source: CallbackSecretsSource): CallbackSecrets {
  return 'secretArn' in source
    ? secretsManagerCallbackSecrets(source.secretArn)
    : fixedCallbackSecrets(source.document);
}
