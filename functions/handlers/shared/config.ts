import * as z from 'zod';
import type { HttpAppConfig } from '../../api/app';
import {
  DEFAULT_EXPORT_EXECUTION_TIMEOUT_SECONDS,
  DEFAULT_EXPORT_RETENTION_DAYS,
  DEFAULT_MAX_RERUNS_PER_TASK,
  LOCAL_EXPORT_BUCKET,
} from '../../contract/exports';
import { APPLICATION_ID_PATTERN } from '../../contract/names';
import {
  DEFAULT_CALLBACK_APPLICATION_ID,
  DEFAULT_EXPORT_FEE,
  DEFAULT_IDEMPOTENCY_RETENTION_SECONDS,
  DEFAULT_INBOX_RETENTION_SECONDS,
} from '../../contract/retention';
import { parseSecretMap, type SecretMap } from '../../schemas/callbacks';

/**
 * What every function reads: the HTTP API's settings (`HttpAppConfig`, one definition of each)
 * plus the table and bucket; each function's own variables come on top (FunctionConfigs).
 */
export interface ServiceConfig extends HttpAppConfig {
  /** DynamoDB table holding accounts, ledger entries and idempotency/inbox records. */
  readonly tableName: string;
  /** The bucket holding export objects (contract §12). */
  readonly exportBucket: string;
  /**
   * Answer replays and mismatches of keys this instance saw settle from memory
   * (`IDEMPOTENCY_LOCAL_CACHE=off` disables it; docs/contract.md §4). @default true
   */
  readonly idempotencyLocalCache?: boolean;
}

/** Where the HTTP function reads callback signing secrets (contract §7). */
export type CallbackSecretsSource =
  | { readonly secretArn: string }
  | { readonly document: SecretMap };

export interface HttpConfig extends ServiceConfig {
  readonly callbackSecrets: CallbackSecretsSource;
}
export interface EventsConfig extends ServiceConfig {
  /** `ledger-events-dlq`, where poison events go at once (contract §6). */
  readonly deadLetterQueueUrl: string;
}
export interface DispatcherConfig extends ServiceConfig {
  /** `export-jobs`, where the outbox delivers (contract §8). */
  readonly exportJobsQueueUrl: string;
}

export interface ExportWorkerConfig extends ServiceConfig {
  /** Base URL of the HTTP API: the worker's signed callbacks go to its callback path. */
  readonly apiUrl: string;
  /** The export application's signing secrets (contract §7, §12). */
  readonly callbackSecrets: CallbackSecretsSource;
}

/** Each Lambda function's configuration; a new function adds its entry here and below. */
export interface FunctionConfigs {
  readonly http: HttpConfig;
  readonly events: EventsConfig;
  readonly dispatcher: DispatcherConfig;
  readonly exportWorker: ExportWorkerConfig;
  readonly sweeper: ServiceConfig;
}
export type FunctionName = keyof FunctionConfigs;

const positiveInt = (fallback: number) =>
  z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).default(fallback);
const queueUrl = (name: string) => z.url({ error: `${name} must be the queue URL` });
const optionalText = z.string().trim().min(1).optional();

const serviceEnv = z.object({
  TABLE_NAME: z.string().min(1, 'TABLE_NAME must name the ledger table'),
  IDEMPOTENCY_RETENTION_SECONDS: positiveInt(DEFAULT_IDEMPOTENCY_RETENTION_SECONDS),
  INBOX_RETENTION_SECONDS: positiveInt(DEFAULT_INBOX_RETENTION_SECONDS),
  EXPORT_FEE: positiveInt(DEFAULT_EXPORT_FEE),
  CALLBACK_APPLICATION_ID: z
    .string()
    .regex(APPLICATION_ID_PATTERN, 'must be 1–64 characters of A-Z a-z 0-9 . _ -')
    .default(DEFAULT_CALLBACK_APPLICATION_ID),
  EXPORT_EXECUTION_TIMEOUT_SECONDS: positiveInt(DEFAULT_EXPORT_EXECUTION_TIMEOUT_SECONDS),
  MAX_RERUNS_PER_TASK: z.coerce
    .number()
    .int()
    .min(0)
    .max(1000)
    .default(DEFAULT_MAX_RERUNS_PER_TASK),
  EXPORT_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3650)
    .default(DEFAULT_EXPORT_RETENTION_DAYS),
  EXPORT_BUCKET: z.string().min(3).max(63).default(LOCAL_EXPORT_BUCKET),
  IDEMPOTENCY_LOCAL_CACHE: z.enum(['on', 'off']).default('on'),
});

const callbackSecretsEnv = z
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
        message: 'set CALLBACK_SECRETS_ARN (or CALLBACK_SECRETS)',
      });
    } catch (error) {
      ctx.addIssue({ code: 'custom', path: [path], message: (error as Error).message });
    }
    return z.NEVER;
  });

/** Each function's own variables, read into the fields its configuration adds. */
const functionEnv = {
  http: callbackSecretsEnv,
  events: z
    .object({ DLQ_URL: queueUrl('DLQ_URL') })
    .transform((e): Omit<EventsConfig, keyof ServiceConfig> => ({ deadLetterQueueUrl: e.DLQ_URL })),
  dispatcher: z.object({ EXPORT_JOBS_QUEUE_URL: queueUrl('EXPORT_JOBS_QUEUE_URL') }).transform(
    (e): Omit<DispatcherConfig, keyof ServiceConfig> => ({
      exportJobsQueueUrl: e.EXPORT_JOBS_QUEUE_URL,
    }),
  ),
  exportWorker: z
    .object({ API_URL: z.url({ error: 'API_URL must be the HTTP API base URL' }) })
    .and(callbackSecretsEnv)
    .transform(
      (e): Omit<ExportWorkerConfig, keyof ServiceConfig> => ({
        apiUrl: e.API_URL.replace(/\/+$/, ''),
        callbackSecrets: e.callbackSecrets,
      }),
    ),
  sweeper: z.object({}),
} satisfies Record<FunctionName, z.ZodType>;

type Env = Record<string, string | undefined>;

/**
 * Reads and validates configuration once at cold start; a bad or missing value fails loudly,
 * every problem in one message. With a function name it adds that function's variables.
 */
export function loadConfig(env: Env): ServiceConfig;
export function loadConfig<F extends FunctionName>(env: Env, fn: F): FunctionConfigs[F];
export function loadConfig(env: Env, fn?: FunctionName): ServiceConfig {
  const shared = serviceEnv.safeParse(env);
  const own = fn === undefined ? undefined : functionEnv[fn].safeParse(env);
  const issues = [...(shared.error?.issues ?? []), ...(own?.error?.issues ?? [])];
  if (!shared.success || own?.success === false) {
    const problems = issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
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
    idempotencyLocalCache: e.IDEMPOTENCY_LOCAL_CACHE === 'on',
  };
  return own === undefined ? config : { ...config, ...own.data };
}
