import * as z from 'zod';
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
  /**
   * Answer replays and mismatches of keys this instance saw settle from memory
   * (`IDEMPOTENCY_LOCAL_CACHE=off` disables it; docs/contract.md §4). @default true
   */
  readonly idempotencyLocalCache?: boolean;
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
  IDEMPOTENCY_LOCAL_CACHE: z.enum(['on', 'off']).default('on'),
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
    idempotencyLocalCache: e.IDEMPOTENCY_LOCAL_CACHE === 'on',
  };
}
