import * as z from 'zod';
import {
  DEFAULT_BACKDATE_LIMIT_DAYS,
  MAX_BACKDATE_LIMIT_DAYS,
  MIN_BACKDATE_LIMIT_DAYS,
} from '../functions/contract/effective-time';
import {
  DEFAULT_EVENTS_BATCH_SIZE,
  DEFAULT_EVENTS_MAX_CONCURRENCY,
  MAX_EVENTS_BATCH_SIZE,
} from '../functions/contract/events';
import {
  DEFAULT_EXPORT_EXECUTION_TIMEOUT_SECONDS,
  DEFAULT_EXPORT_RETENTION_DAYS,
  DEFAULT_MAX_RERUNS_PER_TASK,
  EXPORT_JOBS_MAX_RECEIVE_COUNT,
  EXPORT_JOBS_VISIBILITY_TIMEOUT_SECONDS,
  EXPORT_RETRY_MARGIN_SECONDS,
  exportRetryTiming,
  minimumExportDeadlineSeconds,
} from '../functions/contract/exports';
import {
  DEFAULT_GAP_REFETCH_AFTER_SECONDS,
  MAX_GAP_REFETCH_AFTER_SECONDS,
  MIN_GAP_REFETCH_AFTER_SECONDS,
} from '../functions/contract/gaps';
import { DEFAULT_HEDGED_READ } from '../functions/contract/hedged-read';
import {
  DEFAULT_INTAKE_STRANDED_AFTER_SECONDS,
  MAX_INTAKE_STRANDED_AFTER_SECONDS,
  MIN_INTAKE_STRANDED_AFTER_SECONDS,
} from '../functions/contract/intake';
import { APPLICATION_ID_PATTERN } from '../functions/contract/names';
import {
  DEFAULT_CALLBACK_APPLICATION_ID,
  DEFAULT_EXPORT_FEE,
  DEFAULT_IDEMPOTENCY_RETENTION_SECONDS,
  DEFAULT_INBOX_RETENTION_SECONDS,
} from '../functions/contract/retention';
import { DEFAULT_INTAKE_SHARDS } from '../functions/domain/accounts/model';
import { MAX_INTAKE_SHARDS, MIN_INTAKE_SHARDS } from '../functions/domain/accounts/pending-credits';
import { DIRECTORY_INDEXES } from '../functions/dynamodb/table/indexes';
import { authOf, checkThrottling, reserved } from './config-checks';
import {
  ALARM_EMAIL_PATTERN,
  audienceList,
  booleanSetting,
  hedgedReadSetting,
  integerSetting,
  isHttpsUrl,
  LedgerConfigError,
  numeric,
  positiveInteger,
  principalList,
  reservedConcurrency,
  ruleOf,
  STAGE_PATTERN,
  setting,
  show,
} from './config-rules';

import {
  type AuthConfig,
  type LedgerConfig,
  LOG_RETENTION_DAYS,
  type LogRetentionDays,
  type RemovalPolicyName,
  type ThrottleConfig,
} from './config-types';

/** The settings' types, defined in lib/config-types.ts. */
export type { AuthConfig, LedgerConfig, LogRetentionDays, RemovalPolicyName, ThrottleConfig };
/** What {@link resolveLedgerConfig} throws (lib/config-rules.ts words it). */
export { LedgerConfigError };

export const DEFAULT_STAGE = 'dev';

/** The events consumer's defaults, defined once with the consumer (functions/contract/events.ts). */
export { DEFAULT_EVENTS_BATCH_SIZE, DEFAULT_EVENTS_MAX_CONCURRENCY };

/** Log retention when `logRetentionDays` is not set. */
const DEFAULT_LOG_RETENTION_DAYS: LogRetentionDays = 30;

/**
 * Outbox dispatcher reserved concurrency by default. Stream records are processed one invocation
 * per shard, in order, so more concurrency does not reorder anything; the cap keeps a runaway
 * (a retry storm across many shards) from taking the account's concurrency from the API.
 */
const DEFAULT_DISPATCHER_RESERVED_CONCURRENCY = 2;

/** 5xx responses in 5 minutes that raise the API 5xx alarm by default. */
const DEFAULT_API_5XX_THRESHOLD = 5;

/** The shortest `exportExecutionTimeoutSeconds` the shipped export retries fit in (811 s). */
const MIN_EXPORT_DEADLINE = minimumExportDeadlineSeconds(exportRetryTiming(0));

/**
 * The context settings: one `setting(rule, schema)` per key (lib/config-rules.ts reads raw
 * values and words refusals). API throttling is accepted up to the default regional API Gateway
 * quotas (10,000 requests per second, bursts of 5,000); a value above the account's quota would
 * not take effect anyway. The callbacks route's limits are checked against the stage's in
 * {@link checkThrottling}.
 */
const contextShape = {
  stage: setting(
    `must match ${STAGE_PATTERN} (lowercase letter first, then lowercase letters, digits or '-', at most 20 characters)`,
    z.string().regex(STAGE_PATTERN),
  ),
  jwtIssuer: setting(
    'must be a string URL',
    z.string().refine(isHttpsUrl, {
      error: (issue) => `jwtIssuer must be an https URL; got ${show(issue.input)}`,
    }),
  ),
  jwtAudience: setting(
    'must be a comma separated string or an array of strings',
    z
      .union([z.string().transform((text) => text.split(',')), z.array(z.unknown())])
      .transform(audienceList),
  ),
  deletionProtection: booleanSetting(),
  // The account directory's GSIs the table has, first n: an upgraded stage adds one per deploy
  // (docs/deployment.md "Upgrading to the account directory").
  accountDirectoryIndexes: integerSetting(0, DIRECTORY_INDEXES.length),
  idempotencyRetentionSeconds: positiveInteger(),
  idempotencyHedgedRead: hedgedReadSetting(),
  inboxRetentionSeconds: positiveInteger(),
  exportFee: positiveInteger(),
  // Export retries fit before the deadline (docs/contract.md §12, §30): receives × visibility
  // + 60 s < it.
  exportExecutionTimeoutSeconds: setting(
    `must be an integer from ${MIN_EXPORT_DEADLINE} to 86400 (more than ${EXPORT_JOBS_MAX_RECEIVE_COUNT} receives × the export-jobs visibility timeout of ${EXPORT_JOBS_VISIBILITY_TIMEOUT_SECONDS} s + a ${EXPORT_RETRY_MARGIN_SECONDS} s margin = ${MIN_EXPORT_DEADLINE - 1} s, so a failing job reports FAILED and reaches export-jobs-dlq before its deadline)`,
    numeric.pipe(z.number().int().min(MIN_EXPORT_DEADLINE).max(86_400)),
  ),
  maxRerunsPerTask: integerSetting(0, 1000),
  exportRetentionDays: integerSetting(1, 3650),
  // Above 10 the event source gathers a batch within its batching window (1 s); 100 is as many
  // as one account's batched transactions take within the consumer's 30 s (contract §20).
  eventsBatchSize: integerSetting(1, MAX_EVENTS_BATCH_SIZE),
  // AWS limits of an SQS event source's maximum concurrency.
  eventsMaxConcurrency: integerSetting(2, 1000),
  // The sweeper runs once a minute; a gap is asked for again within a day.
  // A backdated movement lands at most this many days back (docs/contract.md §26).
  backdateLimitDays: integerSetting(MIN_BACKDATE_LIMIT_DAYS, MAX_BACKDATE_LIMIT_DAYS),
  // Intake partitions of a deferred account: at most 9, so a posting of 30 fits (§24).
  intakeShards: integerSetting(MIN_INTAKE_SHARDS, MAX_INTAKE_SHARDS),
  // When a deferred account's oldest pending credit counts as stranded: a second to a day (§36).
  intakeStrandedAfterSeconds: integerSetting(
    MIN_INTAKE_STRANDED_AFTER_SECONDS,
    MAX_INTAKE_STRANDED_AFTER_SECONDS,
  ),
  gapRefetchAfterSeconds: integerSetting(
    MIN_GAP_REFETCH_AFTER_SECONDS,
    MAX_GAP_REFETCH_AFTER_SECONDS,
  ),
  callbackApplicationId: setting(
    `must match ${APPLICATION_ID_PATTERN} (1 to 64 letters, digits, '.', '_' or '-')`,
    z.string().regex(APPLICATION_ID_PATTERN),
  ),
  removalPolicy: setting('must be "retain" or "destroy"', z.enum(['retain', 'destroy'])),
  logRetentionDays: setting(
    `must be one of the CloudWatch Logs retention periods (${LOG_RETENTION_DAYS.join(', ')})`,
    numeric.pipe(z.literal(LOG_RETENTION_DAYS)),
  ),
  apiRateLimit: integerSetting(1, 10_000),
  apiBurstLimit: integerSetting(1, 5_000),
  callbackRateLimit: integerSetting(1, 10_000),
  callbackBurstLimit: integerSetting(1, 5_000),
  httpReservedConcurrency: reservedConcurrency(),
  dispatcherReservedConcurrency: reservedConcurrency(),
  alarmEmail: setting(
    'must be one e-mail address such as ops@example.com',
    z.string().max(254).regex(ALARM_EMAIL_PATTERN),
  ),
  api5xxThreshold: integerSetting(1, 1_000_000),
  journalReaders: setting(
    'must be a comma separated string or an array of principals',
    z
      .union([z.string().transform((text) => text.split(',')), z.array(z.unknown())])
      .transform(principalList),
  ),
};

export type LedgerContextKey = keyof typeof contextShape;

/** Every context key the app reads. */
// Object.keys types its result as string[]; the keys are exactly those of `contextShape`.
export const LEDGER_CONTEXT_KEYS = Object.keys(contextShape) as readonly LedgerContextKey[];

/**
 * Raw context values as CDK hands them over: strings when passed with `-c key=value`,
 * any JSON type when set in `cdk.json` / `cdk.context.json`. `undefined` means "not set".
 */
export type RawLedgerContext = Readonly<Partial<Record<LedgerContextKey, unknown>>>;

/** Raw context → {@link LedgerConfig}: the settings above, then the defaults and derived values. */
const ledgerContextSchema = z.object(contextShape).transform((context, ctx): LedgerConfig => {
  const deletionProtection = context.deletionProtection ?? true;
  return {
    stage: context.stage ?? DEFAULT_STAGE,
    auth: authOf(context, ctx),
    deletionProtection,
    accountDirectoryIndexes: context.accountDirectoryIndexes ?? DIRECTORY_INDEXES.length,
    removalPolicy: context.removalPolicy ?? (deletionProtection ? 'retain' : 'destroy'),
    logRetentionDays: context.logRetentionDays ?? DEFAULT_LOG_RETENTION_DAYS,
    idempotencyRetentionSeconds:
      context.idempotencyRetentionSeconds ?? DEFAULT_IDEMPOTENCY_RETENTION_SECONDS,
    idempotencyHedgedRead: context.idempotencyHedgedRead ?? DEFAULT_HEDGED_READ,
    inboxRetentionSeconds: context.inboxRetentionSeconds ?? DEFAULT_INBOX_RETENTION_SECONDS,
    exportFee: context.exportFee ?? DEFAULT_EXPORT_FEE,
    exportExecutionTimeoutSeconds:
      context.exportExecutionTimeoutSeconds ?? DEFAULT_EXPORT_EXECUTION_TIMEOUT_SECONDS,
    maxRerunsPerTask: context.maxRerunsPerTask ?? DEFAULT_MAX_RERUNS_PER_TASK,
    exportRetentionDays: context.exportRetentionDays ?? DEFAULT_EXPORT_RETENTION_DAYS,
    eventsBatchSize: context.eventsBatchSize ?? DEFAULT_EVENTS_BATCH_SIZE,
    eventsMaxConcurrency: context.eventsMaxConcurrency ?? DEFAULT_EVENTS_MAX_CONCURRENCY,
    gapRefetchAfterSeconds: context.gapRefetchAfterSeconds ?? DEFAULT_GAP_REFETCH_AFTER_SECONDS,
    backdateLimitDays: context.backdateLimitDays ?? DEFAULT_BACKDATE_LIMIT_DAYS,
    intakeShards: context.intakeShards ?? DEFAULT_INTAKE_SHARDS,
    intakeStrandedAfterSeconds:
      context.intakeStrandedAfterSeconds ?? DEFAULT_INTAKE_STRANDED_AFTER_SECONDS,
    callbackApplicationId: context.callbackApplicationId ?? DEFAULT_CALLBACK_APPLICATION_ID,
    ...checkThrottling(context, ctx),
    httpReservedConcurrency: reserved(context.httpReservedConcurrency, undefined),
    dispatcherReservedConcurrency: reserved(
      context.dispatcherReservedConcurrency,
      DEFAULT_DISPATCHER_RESERVED_CONCURRENCY,
    ),
    alarmEmail: context.alarmEmail,
    api5xxThreshold: context.api5xxThreshold ?? DEFAULT_API_5XX_THRESHOLD,
    journalReaders: context.journalReaders ?? [],
  };
});

/**
 * Validates raw CDK context and applies defaults. Pure: no CDK, no environment access, so
 * every branch can be unit-tested. Throws {@link LedgerConfigError} for the first refused key:
 * a custom issue carries its own message, any other is `<key> <rule>; got <value>`.
 */
export function resolveLedgerConfig(raw: RawLedgerContext): LedgerConfig {
  const result = ledgerContextSchema.safeParse(raw);
  if (result.success) return result.data;
  const [issue] = result.error.issues;
  const key = issue?.path[0];
  if (issue === undefined || !isContextKey(key)) throw result.error;
  if (issue.code === 'custom') throw new LedgerConfigError(issue.message, key);
  throw new LedgerConfigError(`${key} ${ruleOf(contextShape[key])}; got ${show(raw[key])}`, key);
}

export const isContextKey = (key: unknown): key is LedgerContextKey =>
  typeof key === 'string' && Object.hasOwn(contextShape, key);
