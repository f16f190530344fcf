import * as z from 'zod';
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
import { parseSecretMap } from '../../schemas/exports/callbacks';
import { lazySchema } from '../../schemas/lazy';
import type {
  CreditIntakeConfig,
  DispatcherConfig,
  EventsConfig,
  ExportWorkerConfig,
  FunctionConfigs,
  FunctionName,
  HttpConfig,
  JournalProjectorConfig,
  ServiceConfig,
  SweeperConfig,
} from './config-types';
import {
  gapRefetchAfter,
  onOff,
  optionalText,
  positiveInt,
  principalList,
  queueUrl,
  rule,
  stageName,
  topicArn,
  url,
  variablesOf,
  wholeNumber,
} from './env-rules';

export type * from './config-types';

const serviceEnv = z.object({
  TABLE_NAME: z
    .string({ error: 'TABLE_NAME must name the ledger table' })
    .min(1, 'TABLE_NAME must name the ledger table'),
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
});

/** A variable every function reads (the shared schema's keys). */
export type ServiceSetting = keyof typeof serviceEnv.shape;

/** Every variable every function reads: the one list for the local stack and CDK (§31). */
export const SERVICE_SETTINGS = Object.keys(serviceEnv.shape) as readonly ServiceSetting[];

const callbackSecretsEnv = lazySchema(() =>
  z
    .object({ CALLBACK_SECRETS_ARN: optionalText, CALLBACK_SECRETS: optionalText })
    .transform((e, ctx): Omit<HttpConfig, keyof ServiceConfig> => {
      if (e.CALLBACK_SECRETS_ARN) return { callbackSecrets: { secretArn: e.CALLBACK_SECRETS_ARN } };
      const path = e.CALLBACK_SECRETS ? 'CALLBACK_SECRETS' : 'CALLBACK_SECRETS_ARN';
      try {
        if (e.CALLBACK_SECRETS)
          return { callbackSecrets: { document: parseSecretMap(e.CALLBACK_SECRETS) } };
        ctx.addIssue({
          code: 'custom',
          path: [path],
          message: 'CALLBACK_SECRETS_ARN (or CALLBACK_SECRETS) must be set',
        });
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          path: [path],
          message: `${path}: ${(error as Error).message}`,
        });
      }
      return z.NEVER;
    }),
);

/** Each function's own variables, read into the fields its configuration adds. */
const functionEnv = {
  http: callbackSecretsEnv,
  events: lazySchema(() =>
    z
      .object({ DLQ_URL: queueUrl('DLQ_URL'), GAP_REFETCH_AFTER_SECONDS: gapRefetchAfter() })
      .transform(
        (e): Omit<EventsConfig, keyof ServiceConfig> => ({
          deadLetterQueueUrl: e.DLQ_URL,
          gapRefetchAfterSeconds: e.GAP_REFETCH_AFTER_SECONDS,
        }),
      ),
  ),
  dispatcher: lazySchema(() =>
    z
      .object({
        EXPORT_JOBS_QUEUE_URL: queueUrl('EXPORT_JOBS_QUEUE_URL'),
        CREDIT_INTAKE_QUEUE_URL: queueUrl('CREDIT_INTAKE_QUEUE_URL'),
      })
      .transform(
        (e): Omit<DispatcherConfig, keyof ServiceConfig> => ({
          exportJobsQueueUrl: e.EXPORT_JOBS_QUEUE_URL,
          creditIntakeQueueUrl: e.CREDIT_INTAKE_QUEUE_URL,
        }),
      ),
  ),
  creditIntake: lazySchema(() =>
    z.object({ CREDIT_INTAKE_QUEUE_URL: queueUrl('CREDIT_INTAKE_QUEUE_URL') }).transform(
      (e): Omit<CreditIntakeConfig, keyof ServiceConfig> => ({
        creditIntakeQueueUrl: e.CREDIT_INTAKE_QUEUE_URL,
      }),
    ),
  ),
  exportWorker: lazySchema(() =>
    z
      .object({ API_URL: url('API_URL', 'the HTTP API base URL') })
      .and(callbackSecretsEnv)
      .transform(
        (e): Omit<ExportWorkerConfig, keyof ServiceConfig> => ({
          apiUrl: e.API_URL.replace(/\/+$/, ''),
          callbackSecrets: e.callbackSecrets,
        }),
      ),
  ),
  sweeper: lazySchema(() =>
    z
      .object({
        GAP_REFETCH_AFTER_SECONDS: gapRefetchAfter(),
        GAP_TOPIC_ARN: topicArn('GAP_TOPIC_ARN', 'be the gap topic ARN'),
        STAGE: stageName(),
        CREDIT_INTAKE_QUEUE_URL: queueUrl('CREDIT_INTAKE_QUEUE_URL'),
      })
      .transform(
        (e): Omit<SweeperConfig, keyof ServiceConfig> => ({
          gapRefetchAfterSeconds: e.GAP_REFETCH_AFTER_SECONDS,
          gapTopicArn: e.GAP_TOPIC_ARN,
          stage: e.STAGE,
          creditIntakeQueueUrl: e.CREDIT_INTAKE_QUEUE_URL,
        }),
      ),
  ),
  reconciler: lazySchema(() => z.object({})),
  journalProjector: lazySchema(() =>
    z
      .object({
        JOURNAL_TOPIC_ARN: topicArn('JOURNAL_TOPIC_ARN', 'be the journal topic ARN'),
        STAGE: stageName(),
        SEARCH_INDEX_QUEUE_URL: queueUrl('SEARCH_INDEX_QUEUE_URL').optional(),
      })
      .transform(
        (e): Omit<JournalProjectorConfig, keyof ServiceConfig> => ({
          journalTopicArn: e.JOURNAL_TOPIC_ARN,
          stage: e.STAGE,
          ...(e.SEARCH_INDEX_QUEUE_URL ? { searchIndexQueueUrl: e.SEARCH_INDEX_QUEUE_URL } : {}),
        }),
      ),
  ),
  searchIndexer: lazySchema(() => z.object({})),
} satisfies Record<FunctionName, z.ZodType>;

type Env = Record<string, string | undefined>;

/** A function's own variables (queues, topics, stage): `local/functions.ts` passes its own. */
export function functionSettings(fn: FunctionName): readonly string[] {
  return variablesOf(functionEnv[fn]);
}

/** An issue as its sentence; one whose text does not name its variable gets the name first. */
function sentence(issue: z.core.$ZodIssue): string {
  const name = issue.path.join('.');
  const text = issue.message.replace(/\.$/, '');
  return name === '' || text.startsWith(name) ? text : `${name}: ${text}`;
}

/**
 * Reads and validates configuration once at cold start; a bad or missing value fails loudly,
 * every problem in one message. With a function name it adds that function's variables.
 */
export function loadConfig(env: Env): ServiceConfig;
export function loadConfig<F extends FunctionName>(env: Env, fn: F): FunctionConfigs[F];
export function loadConfig(env: Env, fn?: FunctionName): ServiceConfig {
  // Parsed once per container: compiling zod's fast path (`new Function`) costs more than it saves.
  const shared = serviceEnv.safeParse(env, { jitless: true });
  const own = fn === undefined ? undefined : functionEnv[fn].safeParse(env, { jitless: true });
  const issues = [...(shared.error?.issues ?? []), ...(own?.error?.issues ?? [])];
  if (!shared.success || own?.success === false) {
    throw new Error(`Invalid configuration: ${issues.map(sentence).join('. ')}.`);
  }
  const e = shared.data;
  const config: ServiceConfig = {
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
  };
  return own === undefined ? config : { ...config, ...own.data };
}
