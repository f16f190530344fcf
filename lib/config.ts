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
  /**
   * What happens to every resource except the ledger table (queues, callback secret, log groups,
   * alarm topic key) when it leaves its stack. The table is always retained.
   */
  readonly removalPolicy: RemovalPolicyName;
  /** Retention of every log group (functions, API access logs), in days. */
  readonly logRetentionDays: LogRetentionDays;
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
  /** `$default` stage throttling: applies to every route without its own setting. */
  readonly apiThrottle: ThrottleConfig;
  /** Route throttling of the unauthenticated `POST /v1/callbacks/{applicationId}`. */
  readonly callbackThrottle: ThrottleConfig;
  /** Reserved concurrency of the HTTP function; `undefined` reserves none (the default). */
  readonly httpReservedConcurrency?: number;
  /** Reserved concurrency of the outbox dispatcher; `undefined` reserves none. */
  readonly dispatcherReservedConcurrency?: number;
  /** Subscribed to the alarm topic (e-mail subscription) when set. */
  readonly alarmEmail?: string;
  /** 5xx responses of the HTTP API within 5 minutes that raise the API 5xx alarm. */
  readonly api5xxThreshold: number;
}

/** API Gateway throttling: steady-state requests per second and bucket size. */
export interface ThrottleConfig {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

export type RemovalPolicyName = 'retain' | 'destroy';

/** The retention periods CloudWatch Logs accepts, in days. */
export const LOG_RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288,
  3653,
] as const;

export type LogRetentionDays = (typeof LOG_RETENTION_DAYS)[number];

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
  'removalPolicy',
  'logRetentionDays',
  'apiRateLimit',
  'apiBurstLimit',
  'callbackRateLimit',
  'callbackBurstLimit',
  'httpReservedConcurrency',
  'dispatcherReservedConcurrency',
  'alarmEmail',
  'api5xxThreshold',
] as const;

/** Context key of the per-stage blocks: `{ "<stage>": { "<key>": <value>, … }, … }`. */
export const STAGES_CONTEXT_KEY = 'stages';

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

/** Log retention when `logRetentionDays` is not set. */
export const DEFAULT_LOG_RETENTION_DAYS: LogRetentionDays = 30;

/**
 * `$default` stage throttling when `apiRateLimit` / `apiBurstLimit` are not set. The callbacks
 * route defaults to half of each (50 / 100).
 */
export const DEFAULT_API_THROTTLE: ThrottleConfig = { rateLimit: 100, burstLimit: 200 };

/**
 * Accepted stage throttling: up to the default regional API Gateway quotas (10,000 requests per
 * second, bursts of 5,000). A value above the account's quota would not take effect anyway.
 */
export const API_RATE_LIMIT_RANGE = { min: 1, max: 10_000 } as const;
export const API_BURST_LIMIT_RANGE = { min: 1, max: 5_000 } as const;

/**
 * Outbox dispatcher reserved concurrency by default. Stream records are processed one invocation
 * per shard, in order, so more concurrency does not reorder anything; the cap keeps a runaway
 * (a retry storm across many shards) from taking the account's concurrency from the API.
 */
export const DEFAULT_DISPATCHER_RESERVED_CONCURRENCY = 2;

/**
 * Accepted reserved concurrency. The account's quota decides what actually fits (AWS keeps 100
 * unreserved); the upper bound only catches typos.
 */
export const RESERVED_CONCURRENCY_RANGE = { min: 1, max: 10_000 } as const;

/** 5xx responses in 5 minutes that raise the API 5xx alarm by default. */
export const DEFAULT_API_5XX_THRESHOLD = 5;
export const API_5XX_THRESHOLD_RANGE = { min: 1, max: 1_000_000 } as const;

/**
 * A plain address for the alarm topic's e-mail subscription: one `@`, no spaces or commas, a
 * dotted domain. SNS sends a confirmation message to it; nothing is delivered before it is
 * confirmed.
 */
export const ALARM_EMAIL_PATTERN =
  /^[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;

/** Stage names end up in stack names (`[A-Za-z][A-Za-z0-9-]*`), so keep them short and plain. */
const STAGE_PATTERN = /^[a-z][a-z0-9-]{0,19}$/;

/** Thrown for any invalid context value; the message names the context key. */
export class LedgerConfigError extends Error {
  /** The message without the `Invalid CDK context: ` prefix. */
  readonly detail: string;
  /** The context key at fault, when one key is. */
  readonly key?: string;

  constructor(detail: string, key?: string) {
    super(`Invalid CDK context: ${detail}`);
    this.name = 'LedgerConfigError';
    this.detail = detail;
    this.key = key;
  }
}

const isSet = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

const show = (value: unknown): string => JSON.stringify(value);

function parseStage(value: unknown): string {
  if (!isSet(value)) return DEFAULT_STAGE;
  if (typeof value !== 'string' || !STAGE_PATTERN.test(value)) {
    throw new LedgerConfigError(
      `stage must match ${STAGE_PATTERN} (lowercase letter first, then lowercase letters, digits or '-', at most 20 characters); got ${show(value)}`,
      'stage',
    );
  }
  return value;
}

function parseCallbackApplicationId(value: unknown): string {
  if (!isSet(value)) return DEFAULT_CALLBACK_APPLICATION_ID;
  if (typeof value !== 'string' || !CALLBACK_APPLICATION_ID_PATTERN.test(value)) {
    throw new LedgerConfigError(
      `callbackApplicationId must match ${CALLBACK_APPLICATION_ID_PATTERN} (1 to 64 letters, digits, '.', '_' or '-'); got ${show(value)}`,
      'callbackApplicationId',
    );
  }
  return value;
}

function parseBoolean(key: LedgerContextKey, value: unknown, fallback: boolean): boolean {
  if (!isSet(value)) return fallback;
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new LedgerConfigError(`${key} must be true or false; got ${show(value)}`, key);
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
    throw new LedgerConfigError(`${key} must be a positive integer; got ${show(value)}`, key);
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
      `${key} must be an integer from ${range.min} to ${range.max}; got ${show(value)}`,
      key,
    );
  }
  return parsed;
}

function parseIssuer(value: unknown): string {
  if (typeof value !== 'string') {
    throw new LedgerConfigError(`jwtIssuer must be a string URL; got ${show(value)}`, 'jwtIssuer');
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new LedgerConfigError(`jwtIssuer must be an https URL; got ${show(value)}`, 'jwtIssuer');
  }
  if (url.protocol !== 'https:') {
    throw new LedgerConfigError(`jwtIssuer must be an https URL; got ${show(value)}`, 'jwtIssuer');
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
      `jwtAudience must be a comma separated string or an array of strings; got ${show(value)}`,
      'jwtAudience',
    );
  }
  const audience: string[] = [];
  for (const item of items) {
    if (typeof item !== 'string') {
      throw new LedgerConfigError(
        `jwtAudience entries must be strings; got ${show(item)}`,
        'jwtAudience',
      );
    }
    const trimmed = item.trim();
    if (trimmed !== '' && !audience.includes(trimmed)) audience.push(trimmed);
  }
  if (audience.length === 0) {
    throw new LedgerConfigError(
      'jwtAudience must contain at least one non-empty audience',
      'jwtAudience',
    );
  }
  return audience;
}

function parseAuth(issuer: unknown, audience: unknown): AuthConfig {
  const hasIssuer = isSet(issuer);
  const hasAudience = isSet(audience);
  if (hasIssuer && !hasAudience) {
    throw new LedgerConfigError(
      'jwtIssuer is set but jwtAudience is missing; set both or neither',
      'jwtAudience',
    );
  }
  if (!hasIssuer && hasAudience) {
    throw new LedgerConfigError(
      'jwtAudience is set but jwtIssuer is missing; set both or neither',
      'jwtIssuer',
    );
  }
  if (!hasIssuer) return { kind: 'iam' };
  return { kind: 'jwt', issuer: parseIssuer(issuer), audience: parseAudience(audience) };
}

function parseRemovalPolicy(value: unknown, deletionProtection: boolean): RemovalPolicyName {
  if (!isSet(value)) return deletionProtection ? 'retain' : 'destroy';
  if (value === 'retain' || value === 'destroy') return value;
  throw new LedgerConfigError(
    `removalPolicy must be "retain" or "destroy"; got ${show(value)}`,
    'removalPolicy',
  );
}

function parseLogRetentionDays(value: unknown): LogRetentionDays {
  if (!isSet(value)) return DEFAULT_LOG_RETENTION_DAYS;
  const parsed = numericValue(value);
  const allowed = LOG_RETENTION_DAYS.find((days) => days === parsed);
  if (allowed === undefined) {
    throw new LedgerConfigError(
      `logRetentionDays must be one of the CloudWatch Logs retention periods (${LOG_RETENTION_DAYS.join(', ')}); got ${show(value)}`,
      'logRetentionDays',
    );
  }
  return allowed;
}

/**
 * Reserved concurrency: unset gives `fallback`, `none` reserves nothing, anything else must be
 * an integer in {@link RESERVED_CONCURRENCY_RANGE}. Zero is refused: it would stop the function.
 */
function parseReservedConcurrency(
  key: LedgerContextKey,
  value: unknown,
  fallback: number | undefined,
): number | undefined {
  if (!isSet(value)) return fallback;
  if (value === 'none') return undefined;
  const parsed = numericValue(value);
  const { min, max } = RESERVED_CONCURRENCY_RANGE;
  if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
    throw new LedgerConfigError(
      `${key} must be an integer from ${min} to ${max}, or "none" to reserve nothing (0 would stop the function); got ${show(value)}`,
      key,
    );
  }
  return parsed;
}

function parseAlarmEmail(value: unknown): string | undefined {
  if (!isSet(value)) return undefined;
  if (typeof value !== 'string' || value.length > 254 || !ALARM_EMAIL_PATTERN.test(value)) {
    throw new LedgerConfigError(
      `alarmEmail must be one e-mail address such as ops@example.com; got ${show(value)}`,
      'alarmEmail',
    );
  }
  return value;
}

/**
 * Stage and callbacks route throttling. The route's limits may not exceed the stage's: the route
 * has no authorizer, so it is the one that must stay tighter. A burst below the rate is allowed
 * (AWS's own regional defaults are 10,000 / 5,000).
 */
function parseThrottling(raw: RawLedgerContext): {
  apiThrottle: ThrottleConfig;
  callbackThrottle: ThrottleConfig;
} {
  const apiThrottle = {
    rateLimit: parseIntegerInRange(
      'apiRateLimit',
      raw.apiRateLimit,
      DEFAULT_API_THROTTLE.rateLimit,
      API_RATE_LIMIT_RANGE,
    ),
    burstLimit: parseIntegerInRange(
      'apiBurstLimit',
      raw.apiBurstLimit,
      DEFAULT_API_THROTTLE.burstLimit,
      API_BURST_LIMIT_RANGE,
    ),
  };
  const callbackThrottle = {
    rateLimit: parseIntegerInRange(
      'callbackRateLimit',
      raw.callbackRateLimit,
      Math.max(1, Math.floor(apiThrottle.rateLimit / 2)),
      { min: 1, max: apiThrottle.rateLimit },
    ),
    burstLimit: parseIntegerInRange(
      'callbackBurstLimit',
      raw.callbackBurstLimit,
      Math.max(1, Math.floor(apiThrottle.burstLimit / 2)),
      { min: 1, max: apiThrottle.burstLimit },
    ),
  };
  return { apiThrottle, callbackThrottle };
}

/**
 * Validates raw CDK context and applies defaults. Pure: no CDK, no environment access, so
 * every branch can be unit-tested. Throws {@link LedgerConfigError} with the offending key.
 */
export function resolveLedgerConfig(raw: RawLedgerContext): LedgerConfig {
  const deletionProtection = parseBoolean('deletionProtection', raw.deletionProtection, true);
  const httpReservedConcurrency = parseReservedConcurrency(
    'httpReservedConcurrency',
    raw.httpReservedConcurrency,
    undefined,
  );
  const dispatcherReservedConcurrency = parseReservedConcurrency(
    'dispatcherReservedConcurrency',
    raw.dispatcherReservedConcurrency,
    DEFAULT_DISPATCHER_RESERVED_CONCURRENCY,
  );
  const alarmEmail = parseAlarmEmail(raw.alarmEmail);
  return {
    stage: parseStage(raw.stage),
    auth: parseAuth(raw.jwtIssuer, raw.jwtAudience),
    deletionProtection,
    removalPolicy: parseRemovalPolicy(raw.removalPolicy, deletionProtection),
    logRetentionDays: parseLogRetentionDays(raw.logRetentionDays),
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
    ...parseThrottling(raw),
    ...(httpReservedConcurrency === undefined ? {} : { httpReservedConcurrency }),
    ...(dispatcherReservedConcurrency === undefined ? {} : { dispatcherReservedConcurrency }),
    ...(alarmEmail === undefined ? {} : { alarmEmail }),
    api5xxThreshold: parseIntegerInRange(
      'api5xxThreshold',
      raw.api5xxThreshold,
      DEFAULT_API_5XX_THRESHOLD,
      API_5XX_THRESHOLD_RANGE,
    ),
  };
}

/** Keys a stage block may set: every ledger key except `stage` itself. */
const STAGE_BLOCK_KEYS: readonly string[] = LEDGER_CONTEXT_KEYS.filter((key) => key !== 'stage');

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Parses the `stages` context value: an object of stage name → block of ledger keys. Shape, stage
 * names and keys are checked here (a misspelt key would otherwise be ignored silently); values are
 * checked by {@link resolveLedgerConfig}.
 */
export function parseStageBlocks(value: unknown): ReadonlyMap<string, RawLedgerContext> {
  const blocks = new Map<string, RawLedgerContext>();
  if (!isSet(value)) return blocks;
  if (!isPlainObject(value)) {
    throw new LedgerConfigError(
      `${STAGES_CONTEXT_KEY} must be an object of stage name to context keys (set it in cdk.json, not with -c); got ${show(value)}`,
      STAGES_CONTEXT_KEY,
    );
  }
  for (const [stage, block] of Object.entries(value)) {
    if (!STAGE_PATTERN.test(stage)) {
      throw new LedgerConfigError(
        `${STAGES_CONTEXT_KEY}: ${show(stage)} is not a valid stage name (${STAGE_PATTERN})`,
        STAGES_CONTEXT_KEY,
      );
    }
    if (!isPlainObject(block)) {
      throw new LedgerConfigError(
        `${STAGES_CONTEXT_KEY}.${stage} must be an object of context keys; got ${show(block)}`,
        STAGES_CONTEXT_KEY,
      );
    }
    for (const key of Object.keys(block)) {
      if (key === 'stage') {
        throw new LedgerConfigError(
          `${STAGES_CONTEXT_KEY}.${stage} must not set stage: the block is chosen by it`,
          STAGES_CONTEXT_KEY,
        );
      }
      if (!STAGE_BLOCK_KEYS.includes(key)) {
        throw new LedgerConfigError(
          `${STAGES_CONTEXT_KEY}.${stage}.${key} is not a context key of this app; known keys: ${STAGE_BLOCK_KEYS.join(', ')}`,
          STAGES_CONTEXT_KEY,
        );
      }
    }
    blocks.set(stage, block as RawLedgerContext);
  }
  return blocks;
}

/** Top-level values that are set win over the block's: `-c key=value` overrides a stage block. */
function mergeStageBlock(block: RawLedgerContext, topLevel: RawLedgerContext): RawLedgerContext {
  const merged: Partial<Record<LedgerContextKey, unknown>> = { ...block };
  for (const key of LEDGER_CONTEXT_KEYS) {
    if (isSet(topLevel[key])) merged[key] = topLevel[key];
  }
  return merged;
}

/** Reads every ledger context key through `lookup` (e.g. `app.node.tryGetContext`), top level only. */
export function readLedgerContext(lookup: (key: string) => unknown): RawLedgerContext {
  const raw: Partial<Record<LedgerContextKey, unknown>> = {};
  for (const key of LEDGER_CONTEXT_KEYS) raw[key] = lookup(key);
  return raw;
}

/**
 * The deployment configuration from CDK context, as `bin/app.ts` builds it:
 *
 * 1. `stage` (top level, default `dev`) picks the block `stages.<stage>`, if there is one;
 * 2. each key is taken from the top level when set there (`-c key=value`, or the top level of
 *    `cdk.json`), else from that block, else from the built-in default;
 * 3. the result is validated by {@link resolveLedgerConfig};
 * 4. every other stage block is validated on its own, so a typo in `stages.prod` fails the
 *    synth of any stage (and CI) instead of the production deployment.
 *
 * Errors caused by a block value say so (`… (from stages.prod)`).
 */
export function ledgerConfigFromContext(lookup: (key: string) => unknown): LedgerConfig {
  const topLevel = readLedgerContext(lookup);
  const blocks = parseStageBlocks(lookup(STAGES_CONTEXT_KEY));
  const stage =
    typeof topLevel.stage === 'string' && topLevel.stage !== '' ? topLevel.stage : DEFAULT_STAGE;
  const block = blocks.get(stage);
  let config: LedgerConfig;
  try {
    config = resolveLedgerConfig(mergeStageBlock(block ?? {}, topLevel));
  } catch (error) {
    const key = error instanceof LedgerConfigError ? error.key : undefined;
    const fromBlock =
      block !== undefined &&
      key !== undefined &&
      isSet(block[key as LedgerContextKey]) &&
      !isSet(topLevel[key as LedgerContextKey]);
    if (error instanceof LedgerConfigError && fromBlock) {
      throw new LedgerConfigError(`${error.detail} (from ${STAGES_CONTEXT_KEY}.${stage})`, key);
    }
    throw error;
  }
  for (const [name, other] of blocks) {
    if (name === config.stage) continue;
    try {
      resolveLedgerConfig({ ...other, stage: name });
    } catch (error) {
      if (!(error instanceof LedgerConfigError)) throw error;
      throw new LedgerConfigError(`${STAGES_CONTEXT_KEY}.${name}: ${error.detail}`, error.key);
    }
  }
  return config;
}
