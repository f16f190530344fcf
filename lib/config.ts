import {
  DEFAULT_CALLBACK_APPLICATION_ID,
  DEFAULT_EXPORT_FEE,
  DEFAULT_IDEMPOTENCY_RETENTION_SECONDS,
  DEFAULT_INBOX_RETENTION_SECONDS,
} from '../functions/contract/retention';

/** How API callers authenticate. */
export type AuthConfig =
  | {
      /** API Gateway HTTP API JWT authorizer (e.g. Cognito, Auth0, any OIDC issuer). */
      readonly kind: 'jwt';
      /** Issuer URL (`iss` claim), https only. */
      readonly issuer: string;
      /** Accepted audiences (`aud` / `client_id` claim); at least one. */
      readonly audience: readonly string[];
    }
  | {
      /** SigV4-signed requests authorised by IAM (`execute-api:Invoke`). */
      readonly kind: 'iam';
    };

/** Validated deployment configuration, built once from CDK context at synth time. */
export interface LedgerConfig {
  /** Deployment stage; part of the stack names. */
  readonly stage: string;
  /** Route authorisation; JWT when `jwtIssuer` + `jwtAudience` are given, IAM otherwise. */
  readonly auth: AuthConfig;
  /** DynamoDB deletion protection on the ledger table. */
  readonly deletionProtection: boolean;
  /** How long an idempotency record replays, in seconds. */
  readonly idempotencyRetentionSeconds: number;
  /** How long an inbox event id is remembered, in seconds. */
  readonly inboxRetentionSeconds: number;
  /** Fee debited per export task, in minor units. */
  readonly exportFee: number;
  /** Most ledger events per consumer invocation (SQS batch size), 1–10. */
  readonly eventsBatchSize: number;
  /** Most concurrent consumer invocations (event source maximum concurrency), 2–1000. */
  readonly eventsMaxConcurrency: number;
  /**
   * The application whose signed callbacks report on export executions: its key in the
   * callback secret, `CALLBACK_APPLICATION_ID` of the functions and the `callbackPath` of every
   * export job (`/v1/callbacks/<id>`).
   */
  readonly callbackApplicationId: string;
}

/**
 * Raw context values as CDK hands them over: strings when passed with `-c key=value`,
 * any JSON type when set in `cdk.json` / `cdk.context.json`. `undefined` means "not set".
 */
export type RawLedgerContext = Readonly<Partial<Record<LedgerContextKey, unknown>>>;

/** Every context key the app reads. */
export const LEDGER_CONTEXT_KEYS = [
  'stage',
  'jwtIssuer',
  'jwtAudience',
  'deletionProtection',
  'idempotencyRetentionSeconds',
  'inboxRetentionSeconds',
  'exportFee',
  'eventsBatchSize',
  'eventsMaxConcurrency',
  'callbackApplicationId',
] as const;

export type LedgerContextKey = (typeof LEDGER_CONTEXT_KEYS)[number];

export const DEFAULT_STAGE = 'dev';

/** Records per events-consumer invocation by default (the SQS maximum without a window). */
export const DEFAULT_EVENTS_BATCH_SIZE = 10;

/** Concurrent events-consumer invocations the event source may start by default. */
export const DEFAULT_EVENTS_MAX_CONCURRENCY = 5;

/**
 * SQS batch size without a batching window (AWS: 1–10). Larger batches need a window and more
 * function time than the consumer is sized for, so the context does not offer them.
 */
export const EVENTS_BATCH_SIZE_RANGE = { min: 1, max: 10 } as const;

/** AWS limits for an SQS event source's maximum concurrency. */
export const EVENTS_MAX_CONCURRENCY_RANGE = { min: 2, max: 1000 } as const;

/**
 * Application ids appear in the callback path (`/v1/callbacks/{applicationId}`) and as keys of the
 * callback secret; the HTTP function validates `CALLBACK_APPLICATION_ID` with the same pattern.
 */
export const CALLBACK_APPLICATION_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/** Stage names end up in stack names (`[A-Za-z][A-Za-z0-9-]*`), so keep them short and plain. */
const STAGE_PATTERN = /^[a-z][a-z0-9-]{0,19}$/;

/** Thrown for any invalid context value; the message names the context key. */
export class LedgerConfigError extends Error {
  constructor(message: string) {
    super(`Invalid CDK context: ${message}`);
    this.name = 'LedgerConfigError';
  }
}

const isSet = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

function parseStage(value: unknown): string {
  if (!isSet(value)) return DEFAULT_STAGE;
  if (typeof value !== 'string' || !STAGE_PATTERN.test(value)) {
    throw new LedgerConfigError(
      `stage must match ${STAGE_PATTERN} (lowercase letter first, then lowercase letters, digits or '-', at most 20 characters); got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

function parseCallbackApplicationId(value: unknown): string {
  if (!isSet(value)) return DEFAULT_CALLBACK_APPLICATION_ID;
  if (typeof value !== 'string' || !CALLBACK_APPLICATION_ID_PATTERN.test(value)) {
    throw new LedgerConfigError(
      `callbackApplicationId must match ${CALLBACK_APPLICATION_ID_PATTERN} (1 to 64 letters, digits, '.', '_' or '-'); got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

function parseBoolean(key: LedgerContextKey, value: unknown, fallback: boolean): boolean {
  if (!isSet(value)) return fallback;
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new LedgerConfigError(`${key} must be true or false; got ${JSON.stringify(value)}`);
}

/** A JSON number as is, a string of digits (how `-c` delivers numbers) as a number, else NaN. */
function numericValue(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) return Number(value);
  return Number.NaN;
}

function parsePositiveInteger(key: LedgerContextKey, value: unknown, fallback: number): number {
  if (!isSet(value)) return fallback;
  const parsed = numericValue(value);
  if (!Number.isSafeInteger(parsed) || parsed <= 0) {
    throw new LedgerConfigError(`${key} must be a positive integer; got ${JSON.stringify(value)}`);
  }
  return parsed;
}

function parseIntegerInRange(
  key: LedgerContextKey,
  value: unknown,
  fallback: number,
  range: { readonly min: number; readonly max: number },
): number {
  if (!isSet(value)) return fallback;
  const parsed = numericValue(value);
  if (!Number.isInteger(parsed) || parsed < range.min || parsed > range.max) {
    throw new LedgerConfigError(
      `${key} must be an integer from ${range.min} to ${range.max}; got ${JSON.stringify(value)}`,
    );
  }
  return parsed;
}

function parseIssuer(value: unknown): string {
  if (typeof value !== 'string') {
    throw new LedgerConfigError(`jwtIssuer must be a string URL; got ${JSON.stringify(value)}`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new LedgerConfigError(`jwtIssuer must be an https URL; got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'https:') {
    throw new LedgerConfigError(`jwtIssuer must be an https URL; got ${JSON.stringify(value)}`);
  }
  return value;
}

function parseAudience(value: unknown): string[] {
  let items: unknown[];
  if (typeof value === 'string') {
    items = value.split(',');
  } else if (Array.isArray(value)) {
    items = value;
  } else {
    throw new LedgerConfigError(
      `jwtAudience must be a comma separated string or an array of strings; got ${JSON.stringify(value)}`,
    );
  }
  const audience: string[] = [];
  for (const item of items) {
    if (typeof item !== 'string') {
      throw new LedgerConfigError(
        `jwtAudience entries must be strings; got ${JSON.stringify(item)}`,
      );
    }
    const trimmed = item.trim();
    if (trimmed !== '' && !audience.includes(trimmed)) audience.push(trimmed);
  }
  if (audience.length === 0) {
    throw new LedgerConfigError('jwtAudience must contain at least one non-empty audience');
  }
  return audience;
}

function parseAuth(issuer: unknown, audience: unknown): AuthConfig {
  const hasIssuer = isSet(issuer);
  const hasAudience = isSet(audience);
  if (hasIssuer && !hasAudience) {
    throw new LedgerConfigError('jwtIssuer is set but jwtAudience is missing; set both or neither');
  }
  if (!hasIssuer && hasAudience) {
    throw new LedgerConfigError('jwtAudience is set but jwtIssuer is missing; set both or neither');
  }
  if (!hasIssuer) return { kind: 'iam' };
  return { kind: 'jwt', issuer: parseIssuer(issuer), audience: parseAudience(audience) };
}

/**
 * Validates raw CDK context and applies defaults. Pure: no CDK, no environment access, so
 * every branch can be unit-tested. Throws {@link LedgerConfigError} with the offending key.
 */
export function resolveLedgerConfig(raw: RawLedgerContext): LedgerConfig {
  return {
    stage: parseStage(raw.stage),
    auth: parseAuth(raw.jwtIssuer, raw.jwtAudience),
    deletionProtection: parseBoolean('deletionProtection', raw.deletionProtection, true),
    idempotencyRetentionSeconds: parsePositiveInteger(
      'idempotencyRetentionSeconds',
      raw.idempotencyRetentionSeconds,
      DEFAULT_IDEMPOTENCY_RETENTION_SECONDS,
    ),
    inboxRetentionSeconds: parsePositiveInteger(
      'inboxRetentionSeconds',
      raw.inboxRetentionSeconds,
      DEFAULT_INBOX_RETENTION_SECONDS,
    ),
    exportFee: parsePositiveInteger('exportFee', raw.exportFee, DEFAULT_EXPORT_FEE),
    eventsBatchSize: parseIntegerInRange(
      'eventsBatchSize',
      raw.eventsBatchSize,
      DEFAULT_EVENTS_BATCH_SIZE,
      EVENTS_BATCH_SIZE_RANGE,
    ),
    eventsMaxConcurrency: parseIntegerInRange(
      'eventsMaxConcurrency',
      raw.eventsMaxConcurrency,
      DEFAULT_EVENTS_MAX_CONCURRENCY,
      EVENTS_MAX_CONCURRENCY_RANGE,
    ),
    callbackApplicationId: parseCallbackApplicationId(raw.callbackApplicationId),
  };
}

/** Reads every ledger context key through `lookup` (e.g. `app.node.tryGetContext`). */
export function readLedgerContext(lookup: (key: string) => unknown): RawLedgerContext {
  const raw: Partial<Record<LedgerContextKey, unknown>> = {};
  for (const key of LEDGER_CONTEXT_KEYS) raw[key] = lookup(key);
  return raw;
}
