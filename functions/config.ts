import { z } from 'zod';
import {
  DEFAULT_EXPORT_EXECUTION_TIMEOUT_SECONDS,
  DEFAULT_EXPORT_RETENTION_DAYS,
  DEFAULT_MAX_RERUNS_PER_TASK,
  LOCAL_EXPORT_BUCKET,
} from './contract/exports';
import {
  DEFAULT_CALLBACK_APPLICATION_ID,
  DEFAULT_EXPORT_FEE,
  DEFAULT_IDEMPOTENCY_RETENTION_SECONDS,
  DEFAULT_INBOX_RETENTION_SECONDS,
} from './contract/retention';

export interface ServiceConfig {
  /** DynamoDB table holding accounts, ledger entries and idempotency/inbox records. */
  readonly tableName: string;
  /** How long a request idempotency record replays (contract §4). */
  readonly idempotencyRetentionSeconds: number;
  /** How long an event id is remembered by the inbox (contract §6). */
  readonly inboxRetentionSeconds: number;
  /** Fee debited per export task, in minor units (contract §5). */
  readonly exportFee: number;
  /** The application whose signed callbacks report on export executions (contract §7, §8). */
  readonly callbackApplicationId: string;
  /** An execution not terminal this long after its creation times out (contract §12). */
  readonly exportExecutionTimeoutSeconds: number;
  /** Reruns a task accepts (contract §14). */
  readonly maxRerunsPerTask: number;
  /** Days an export object is kept; the result route answers 410 after them (contract §14). */
  readonly exportRetentionDays: number;
  /** The bucket holding export objects (contract §12). */
  readonly exportBucket: string;
}

const positiveInt = (fallback: number) =>
  z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).default(fallback);

const envSchema = z.object({
  TABLE_NAME: z.string().min(1, 'TABLE_NAME must name the ledger table'),
  IDEMPOTENCY_RETENTION_SECONDS: positiveInt(DEFAULT_IDEMPOTENCY_RETENTION_SECONDS),
  INBOX_RETENTION_SECONDS: positiveInt(DEFAULT_INBOX_RETENTION_SECONDS),
  EXPORT_FEE: positiveInt(DEFAULT_EXPORT_FEE),
  CALLBACK_APPLICATION_ID: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1–64 characters of A-Z a-z 0-9 . _ -')
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
});

/** Reads and validates configuration once at cold start; a bad value fails loudly. */
export function loadConfig(env: Record<string, string | undefined>): ServiceConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  return {
    tableName: e.TABLE_NAME,
    idempotencyRetentionSeconds: e.IDEMPOTENCY_RETENTION_SECONDS,
    inboxRetentionSeconds: e.INBOX_RETENTION_SECONDS,
    exportFee: e.EXPORT_FEE,
    callbackApplicationId: e.CALLBACK_APPLICATION_ID,
    exportExecutionTimeoutSeconds: e.EXPORT_EXECUTION_TIMEOUT_SECONDS,
    maxRerunsPerTask: e.MAX_RERUNS_PER_TASK,
    exportRetentionDays: e.EXPORT_RETENTION_DAYS,
    exportBucket: e.EXPORT_BUCKET,
  };
}
