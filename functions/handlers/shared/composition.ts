import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { secretsManagerCallbackSecrets } from '../../aws/secrets-manager';
import type { CallbackSecrets } from '../../domain/callbacks/port';
import type { Log } from '../../domain/shared/log';
import { countRetry, type MetricsPort, noMetrics } from '../../domain/shared/metrics';
import type { RetryPolicy } from '../../dynamodb/table/transact';
import { fixedCallbackSecrets } from '../../schemas/callbacks';
import type { CallbackSecretsSource, ServiceConfig } from './config';

/**
 * What every function's composition (`functions/<name>/compose.ts`) takes besides its clients:
 * its configuration, where logs and metrics go, and the clock. The Lambda handler, the local
 * stack and the tests all build a function through its composition, so they run the same wiring.
 */
export interface Composition<Config extends ServiceConfig> {
  readonly config: Config;
  readonly log?: Log;
  readonly metrics?: MetricsPort;
  readonly clock?: () => Date;
}

/** A composition that writes the ledger table through the store. */
export interface TableComposition<Config extends ServiceConfig> extends Composition<Config> {
  readonly dynamo: DynamoDBClient;
  /** Tests shorten the transaction retry policy; the defaults are the production ones. */
  readonly retry?: Partial<RetryPolicy>;
}

/** The store options of a composition: every transaction retry is counted as a metric. */
export function tableOptions(options: TableComposition<ServiceConfig>) {
  return {
    client: options.dynamo,
    tableName: options.config.tableName,
    retry: { onRetry: countRetry(options.metrics ?? noMetrics), ...options.retry },
  };
}

/** Callback secrets from where the configuration says: Secrets Manager, or a fixed document. */
export function callbackSecretsFrom(source: CallbackSecretsSource): CallbackSecrets {
  return 'secretArn' in source
    ? secretsManagerCallbackSecrets(source.secretArn)
    : fixedCallbackSecrets(source.document);
}
