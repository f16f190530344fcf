import {
  DEFAULT_BACKDATE_LIMIT_DAYS,
  DEFAULT_DAY_SUMS_SETTLE_SECONDS,
  MAX_BACKDATE_LIMIT_DAYS,
  MAX_DAY_SUMS_SETTLE_SECONDS,
  MIN_BACKDATE_LIMIT_DAYS,
} from '../../contract/effective-time';
import {
  DEFAULT_EXPORT_EXECUTION_TIMEOUT_SECONDS,
  DEFAULT_EXPORT_RETENTION_DAYS,
  DEFAULT_MAX_RERUNS_PER_TASK,
  LOCAL_EXPORT_BUCKET,
} from '../../contract/exports';
import {
  DEFAULT_HEDGED_READ,
  HEDGED_READ_SETTINGS,
  type HedgedReadSetting,
  isHedgedReadSetting,
} from '../../contract/hedged-read';
import {
  DEFAULT_INTAKE_STRANDED_AFTER_SECONDS,
  MAX_INTAKE_STRANDED_AFTER_SECONDS,
  MIN_INTAKE_STRANDED_AFTER_SECONDS,
} from '../../contract/intake';
import { APPLICATION_ID_PATTERN } from '../../contract/names';
import {
  DEFAULT_CALLBACK_APPLICATION_ID,
  DEFAULT_EXPORT_FEE,
  DEFAULT_IDEMPOTENCY_RETENTION_SECONDS,
  DEFAULT_INBOX_RETENTION_SECONDS,
} from '../../contract/retention';
import { DEFAULT_INTAKE_SHARDS } from '../../domain/accounts/model';
import { MAX_INTAKE_SHARDS, MIN_INTAKE_SHARDS } from '../../domain/accounts/pending-credits';
import type { ServiceConfig } from './config-types';
import {
  bothOf,
  type EnvSchema,
  envSchema,
  onOff,
  positiveInt,
  principalList,
  type Rule,
  rule,
  valueOrThrow,
  wholeNumber,
} from './env-rules';

export type * from './config-types';

const tableName: Rule<string> = (raw) =>
  raw ? { value: raw } : { problem: 'TABLE_NAME must name the ledger table' };

const serviceRules = {
  TABLE_NAME: tableName,
  IDEMPOTENCY_RETENTION_SECONDS: positiveInt(
    'IDEMPOTENCY_RETENTION_SECONDS',
    DEFAULT_IDEMPOTENCY_RETENTION_SECONDS,
  ),
  INBOX_RETENTION_SECONDS: positiveInt('INBOX_RETENTION_SECONDS', DEFAULT_INBOX_RETENTION_SECONDS),
  EXPORT_FEE: positiveInt('EXPORT_FEE', DEFAULT_EXPORT_FEE),
  CALLBACK_APPLICATION_ID: rule(
    'CALLBACK_APPLICATION_ID',
    DEFAULT_CALLBACK_APPLICATION_ID,
    (value) => (APPLICATION_ID_PATTERN.test(value) ? value : undefined),
    'be 1–64 characters of A-Z a-z 0-9 . _ -',
  ),
  EXPORT_EXECUTION_TIMEOUT_SECONDS: positiveInt(
    'EXPORT_EXECUTION_TIMEOUT_SECONDS',
    DEFAULT_EXPORT_EXECUTION_TIMEOUT_SECONDS,
  ),
  MAX_RERUNS_PER_TASK: wholeNumber('MAX_RERUNS_PER_TASK', 0, 1000, DEFAULT_MAX_RERUNS_PER_TASK),
  EXPORT_RETENTION_DAYS: wholeNumber(
    'EXPORT_RETENTION_DAYS',
    1,
    3650,
    DEFAULT_EXPORT_RETENTION_DAYS,
  ),
  EXPORT_BUCKET: rule(
    'EXPORT_BUCKET',
    LOCAL_EXPORT_BUCKET,
    (value) => (value.length >= 3 && value.length <= 63 ? value : undefined),
    'be a bucket name of 3 to 63 characters',
  ),
  IDEMPOTENCY_LOCAL_CACHE: onOff('IDEMPOTENCY_LOCAL_CACHE'),
  IDEMPOTENCY_HEDGED_READ: rule<HedgedReadSetting>(
    'IDEMPOTENCY_HEDGED_READ',
    DEFAULT_HEDGED_READ,
    (value) => (isHedgedReadSetting(value) ? value : undefined),
    `be ${HEDGED_READ_SETTINGS.join(', ').replace(/, (?=[^,]*$)/, ' or ')}`,
  ),
  BACKDATE_LIMIT_DAYS: wholeNumber(
    'BACKDATE_LIMIT_DAYS',
    MIN_BACKDATE_LIMIT_DAYS,
    MAX_BACKDATE_LIMIT_DAYS,
    DEFAULT_BACKDATE_LIMIT_DAYS,
  ),
  DAY_SUMS_SETTLE_SECONDS: wholeNumber(
    'DAY_SUMS_SETTLE_SECONDS',
    0,
    MAX_DAY_SUMS_SETTLE_SECONDS,
    DEFAULT_DAY_SUMS_SETTLE_SECONDS,
  ),
  INTAKE_SHARDS: wholeNumber(
    'INTAKE_SHARDS',
    MIN_INTAKE_SHARDS,
    MAX_INTAKE_SHARDS,
    DEFAULT_INTAKE_SHARDS,
  ),
  INTAKE_STRANDED_AFTER_SECONDS: wholeNumber(
    'INTAKE_STRANDED_AFTER_SECONDS',
    MIN_INTAKE_STRANDED_AFTER_SECONDS,
    MAX_INTAKE_STRANDED_AFTER_SECONDS,
    DEFAULT_INTAKE_STRANDED_AFTER_SECONDS,
  ),
  JOURNAL_READERS: rule<readonly string[]>(
    'JOURNAL_READERS',
    [],
    principalList,
    'be a JSON array of principals (strings) or a comma separated list',
  ),
};

/** A variable every function reads (the shared rules' keys). */
export type ServiceSetting = keyof typeof serviceRules;

/** Every variable every function reads: the one list for the local stack and CDK (§31). */
export const SERVICE_SETTINGS = Object.keys(serviceRules) as readonly ServiceSetting[];

type Env = Record<string, string | undefined>;

const serviceEnv = envSchema(
  serviceRules,
  (e): ServiceConfig => ({
    tableName: e.TABLE_NAME,
    idempotencyRetentionSeconds: e.IDEMPOTENCY_RETENTION_SECONDS,
    inboxRetentionSeconds: e.INBOX_RETENTION_SECONDS,
    exportFee: e.EXPORT_FEE,
    callbackApplicationId: e.CALLBACK_APPLICATION_ID,
    exportExecutionTimeoutSeconds: e.EXPORT_EXECUTION_TIMEOUT_SECONDS,
    maxRerunsPerTask: e.MAX_RERUNS_PER_TASK,
    exportRetentionDays: e.EXPORT_RETENTION_DAYS,
    exportBucket: e.EXPORT_BUCKET,
    idempotencyLocalCache: e.IDEMPOTENCY_LOCAL_CACHE,
    idempotencyHedgedRead: e.IDEMPOTENCY_HEDGED_READ,
    journalReaders: e.JOURNAL_READERS,
    backdateLimitDays: e.BACKDATE_LIMIT_DAYS,
    daySumsSettleSeconds: e.DAY_SUMS_SETTLE_SECONDS,
    intakeShards: e.INTAKE_SHARDS,
    intakeStrandedAfterSeconds: e.INTAKE_STRANDED_AFTER_SECONDS,
  }),
);

/**
 * Reads and validates configuration once at cold start; a bad or missing value fails loudly,
 * every problem in one message. With a function's own schema (its `env.ts`) it adds those
 * variables; each handler imports only its own, so no bundle carries another's.
 */
export function loadConfig(env: Env): ServiceConfig;
export function loadConfig<T extends object>(env: Env, ownEnv: EnvSchema<T>): ServiceConfig & T;
export function loadConfig(env: Env, ownEnv?: EnvSchema<object>): ServiceConfig {
  const read = ownEnv
    ? bothOf(serviceEnv, ownEnv, (shared, own) => ({ ...shared, ...own })).read(env)
    : serviceEnv.read(env);
  return valueOrThrow(read);
}
