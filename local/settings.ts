import {
  DEFAULT_EVENTS_BATCH_SIZE,
  DEFAULT_EVENTS_MAX_CONCURRENCY,
  MAX_EVENTS_BATCH_SIZE,
} from '../functions/contract/events';
import { LOCAL_GAP_REFETCH_AFTER_SECONDS } from '../functions/contract/gaps';
import { LOCAL_INTAKE_STRANDED_AFTER_SECONDS } from '../functions/contract/intake';
import {
  DEFAULT_DYNAMODB_PORT,
  DEFAULT_PORT,
  DEFAULT_RECONCILE_INTERVAL_SECONDS,
  DEFAULT_SQS_PORT,
  DEFAULT_SWEEP_INTERVAL_SECONDS,
  DEFAULT_TABLE_NAME,
  localCallbackSecretsJson,
} from '../functions/contract/local-stack';
import {
  DEFAULT_WEBHOOK_DISABLE_AFTER_FAILURES,
  LOCAL_WEBHOOK_RETRIES,
  type WebhookRetrySchedule,
} from '../functions/contract/webhooks';
import { messageOf } from '../functions/domain/shared/log';
import {
  loadConfig,
  SERVICE_SETTINGS,
  type ServiceConfig,
} from '../functions/handlers/shared/config';
import {
  mergeKeyMaps,
  parsePublicKeyMap,
  parseSecretMap,
} from '../functions/schemas/exports/callbacks';
import {
  type ContentionSettings,
  DEFAULT_CONTENTION_WRITE_UNITS,
} from './services/contention/service';

/** What `npm start` reads from the environment (contract §9). */
export interface LocalSettings {
  /** HTTP API port on 127.0.0.1. @default 3000 */
  readonly port: number;
  /** Port for the DynamoDB Local the stack starts. @default 8000 */
  readonly dynamoPort: number;
  /** An already running DynamoDB to use instead of starting DynamoDB Local. */
  readonly dynamoEndpoint: string | undefined;
  /** Port for the SQS emulator (fauxqs) the stack starts. @default 4566 */
  readonly sqsPort: number;
  /** An already running SQS (emulator) to use instead of starting fauxqs. */
  readonly sqsEndpoint: string | undefined;
  /** How long the queue poller hides a received message; failures reappear after it. @default 5 */
  readonly sqsVisibilityTimeoutSeconds: number;
  /** Pause between two sweeps of due holds and executions (contract §11). @default 2 */
  readonly sweepIntervalSeconds: number;
  /**
   * GAP_REFETCH_AFTER_SECONDS (docs/contract.md §18): how long a ledger-event gap stays open
   * before the sweeper requests it again; the events consumer and the sweeper read it. @default 5
   */
  readonly gapRefetchAfterSeconds: number;
  /** Pause between two reconciliation runs (docs/contract.md §19). @default 30 */
  readonly reconcileIntervalSeconds: number;
  /** S3 for export objects (contract §12): S3_ENDPOINT, else the SQS endpoint (fauxqs serves both). */
  readonly s3Endpoint: string | undefined;
  /** SNS for the journal topic (docs/contract.md §15): SNS_ENDPOINT, else the SQS endpoint. */
  readonly snsEndpoint: string | undefined;
  /** Runs the export worker on `export-jobs` unless EXPORT_WORKER=off. @default true */
  readonly exportWorker: boolean;
  /**
   * DYNAMODB_CONTENTION=on puts the contention layer in front of DynamoDB, with
   * DYNAMODB_CONTENTION_WCU write units per item and second (docs/contract.md §20).
   * @default undefined (off)
   */
  readonly contention: ContentionSettings | undefined;
  /** Records per events-consumer batch, 1–100 (EVENTS_BATCH_SIZE). @default 10 */
  readonly eventsBatchSize: number;
  /** Batches the events poller runs at once (EVENTS_MAX_CONCURRENCY), as Lambda's. @default 5 */
  readonly eventsMaxConcurrency: number;
  /** The handler configuration; TABLE_NAME defaults to `ledger`. */
  readonly config: ServiceConfig;
  /**
   * Signing keys per application, `{ "<applicationId>": ["<secret>" | "whpk_…", ...] }`:
   * CALLBACK_SECRETS (or the demo application with the demo secret), then the `whpk_` public
   * keys of CALLBACK_PUBLIC_KEYS. Validated here so a typo stops `npm start`.
   */
  readonly callbackSecrets: Readonly<Record<string, readonly string[]>>;
  /** True when CALLBACK_SECRETS was set (the banner then does not print the secrets). */
  readonly callbackSecretsGiven: boolean;
  /** The webhook delivery function's own settings (docs/contract.md §32), shorter than deployed. */
  readonly webhooks: LocalWebhookSettings;
}

export interface LocalWebhookSettings {
  /** WEBHOOK_RETRY_*_SECONDS; @default LOCAL_WEBHOOK_RETRIES (three retries within 30 s, §36) */
  readonly retries: WebhookRetrySchedule;
  /** WEBHOOK_DISABLE_AFTER_FAILURES. @default 100 */
  readonly disableAfterFailures: number;
}

const DEFAULT_SQS_VISIBILITY_TIMEOUT_SECONDS = 5;

/** Reads and validates the local stack's variables; a bad value throws a readable error. */
export function readLocalSettings(env: Record<string, string | undefined>): LocalSettings {
  const given = (name: string) => {
    const value = env[name]?.trim();
    return value === '' ? undefined : value;
  };
  return {
    port: parsePort('PORT', given('PORT'), DEFAULT_PORT),
    dynamoPort: parsePort('DYNAMODB_PORT', given('DYNAMODB_PORT'), DEFAULT_DYNAMODB_PORT),
    dynamoEndpoint: parseEndpoint('DYNAMODB_ENDPOINT', given('DYNAMODB_ENDPOINT')),
    sqsPort: parsePort('SQS_PORT', given('SQS_PORT'), DEFAULT_SQS_PORT),
    sqsEndpoint: parseEndpoint('SQS_ENDPOINT', given('SQS_ENDPOINT')),
    sqsVisibilityTimeoutSeconds: parseSeconds(
      'SQS_VISIBILITY_TIMEOUT_SECONDS',
      given('SQS_VISIBILITY_TIMEOUT_SECONDS'),
      DEFAULT_SQS_VISIBILITY_TIMEOUT_SECONDS,
    ),
    sweepIntervalSeconds: parseInterval(
      'SWEEP_INTERVAL_SECONDS',
      given('SWEEP_INTERVAL_SECONDS'),
      DEFAULT_SWEEP_INTERVAL_SECONDS,
    ),
    gapRefetchAfterSeconds: parseInterval(
      'GAP_REFETCH_AFTER_SECONDS',
      given('GAP_REFETCH_AFTER_SECONDS'),
      LOCAL_GAP_REFETCH_AFTER_SECONDS,
    ),
    reconcileIntervalSeconds: parseInterval(
      'RECONCILE_INTERVAL_SECONDS',
      given('RECONCILE_INTERVAL_SECONDS'),
      DEFAULT_RECONCILE_INTERVAL_SECONDS,
    ),
    s3Endpoint: parseEndpoint('S3_ENDPOINT', given('S3_ENDPOINT')),
    snsEndpoint: parseEndpoint('SNS_ENDPOINT', given('SNS_ENDPOINT')),
    exportWorker: parseSwitch('EXPORT_WORKER', given('EXPORT_WORKER')),
    contention: parseSwitch('DYNAMODB_CONTENTION', given('DYNAMODB_CONTENTION'), false)
      ? {
          writeUnitsPerSecond: parseCount(
            'DYNAMODB_CONTENTION_WCU',
            given('DYNAMODB_CONTENTION_WCU'),
            DEFAULT_CONTENTION_WRITE_UNITS,
            1_000_000,
          ),
        }
      : undefined,
    eventsBatchSize: parseCount(
      'EVENTS_BATCH_SIZE',
      given('EVENTS_BATCH_SIZE'),
      DEFAULT_EVENTS_BATCH_SIZE,
      MAX_EVENTS_BATCH_SIZE,
    ),
    eventsMaxConcurrency: parseCount(
      'EVENTS_MAX_CONCURRENCY',
      given('EVENTS_MAX_CONCURRENCY'),
      DEFAULT_EVENTS_MAX_CONCURRENCY,
      1000,
    ),
    // Every setting the deployed functions read, from the one list (docs/contract.md §31).
    config: loadConfig({
      ...Object.fromEntries(SERVICE_SETTINGS.map((name) => [name, given(name)])),
      TABLE_NAME: given('TABLE_NAME') ?? DEFAULT_TABLE_NAME,
      INTAKE_STRANDED_AFTER_SECONDS:
        given('INTAKE_STRANDED_AFTER_SECONDS') ?? String(LOCAL_INTAKE_STRANDED_AFTER_SECONDS),
    }),
    callbackSecrets: mergeKeyMaps(
      parseCallbackSecrets(given('CALLBACK_SECRETS')),
      parsePublicKeys(given('CALLBACK_PUBLIC_KEYS')),
    ),
    callbackSecretsGiven: given('CALLBACK_SECRETS') !== undefined,
    webhooks: readWebhookSettings(given),
  };
}

/** The delivery function's variables (WEBHOOK_SETTINGS) with the local stack's defaults. */
function readWebhookSettings(given: (name: string) => string | undefined): LocalWebhookSettings {
  const seconds = (name: string, fallback: number, max: number) =>
    parseCount(name, given(name), fallback, max);
  const base = LOCAL_WEBHOOK_RETRIES;
  return {
    retries: {
      baseDelaySeconds: seconds('WEBHOOK_RETRY_BASE_SECONDS', base.baseDelaySeconds, 3600),
      maxDelaySeconds: seconds('WEBHOOK_RETRY_MAX_DELAY_SECONDS', base.maxDelaySeconds, 86_400),
      retryWindowSeconds: seconds(
        'WEBHOOK_RETRY_WINDOW_SECONDS',
        base.retryWindowSeconds,
        3 * 86_400,
      ),
    },
    disableAfterFailures: seconds(
      'WEBHOOK_DISABLE_AFTER_FAILURES',
      DEFAULT_WEBHOOK_DISABLE_AFTER_FAILURES,
      100_000,
    ),
  };
}

function parseCallbackSecrets(value: string | undefined): Record<string, string[]> {
  try {
    return parseSecretMap(localCallbackSecretsJson({ CALLBACK_SECRETS: value }));
  } catch (error) {
    throw new Error(`CALLBACK_SECRETS: ${messageOf(error)}`);
  }
}

function parsePublicKeys(value: string | undefined): Record<string, string[]> {
  if (value === undefined) return {};
  try {
    return parsePublicKeyMap(value);
  } catch (error) {
    throw new Error(`CALLBACK_PUBLIC_KEYS: ${messageOf(error)}`);
  }
}

function parsePort(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port < 1 || port > 65_535) {
    throw new Error(`${name} must be a port number between 1 and 65535 (got "${value}")`);
  }
  return port;
}

/** Whole seconds within SQS's VisibilityTimeout range, 0–43200. */
function parseSeconds(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const seconds = Number(value);
  if (!/^\d+$/.test(value) || seconds > 43_200) {
    throw new Error(`${name} must be whole seconds between 0 and 43200 (got "${value}")`);
  }
  return seconds;
}

/** A pause of 0.1–3600 seconds, fractions allowed. */
function parseInterval(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || seconds < 0.1 || seconds > 3600) {
    throw new Error(`${name} must be seconds between 0.1 and 3600 (got "${value}")`);
  }
  return seconds;
}

/** A whole number from 1 to `max`. */
function parseCount(name: string, value: string | undefined, fallback: number, max: number) {
  if (value === undefined) return fallback;
  const count = Number(value);
  if (!/^\d+$/.test(value) || count < 1 || count > max) {
    throw new Error(`${name} must be a whole number between 1 and ${max} (got "${value}")`);
  }
  return count;
}

/** `on` or `off`; unset is `fallback` (on unless said). */
function parseSwitch(name: string, value: string | undefined, fallback = true): boolean {
  if (value === undefined) return fallback;
  if (value.toLowerCase() === 'on') return true;
  if (value.toLowerCase() === 'off') return false;
  throw new Error(`${name} must be on or off (got "${value}")`);
}

function parseEndpoint(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} must be a URL such as http://127.0.0.1:8000 (got "${value}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`${name} must be an http(s) URL (got "${value}")`);
  }
  return value.replace(/\/+$/, '');
}
