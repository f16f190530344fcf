import { randomUUID } from 'node:crypto';
import {
  type CancellationReason,
  type DynamoDBClient,
  TransactionCanceledException,
  type TransactWriteItem,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import {
  IdempotencyKeyInUseError,
  InternalError,
  UnavailableError,
} from '../../domain/shared/errors';
import { fullJitterMs, sleep } from '../../domain/shared/retry';
import { storageError } from './sdk-errors';

/** One item of a transaction, named by what it means to the caller. */
export interface TransactPart<Role extends string> {
  readonly role: Role;
  readonly item: TransactWriteItem;
  /**
   * A failed condition here settles the outcome even if other items conflicted: the dedup
   * record (claim or inbox) already says "replay" or "duplicate", so retrying is pointless.
   */
  readonly decisive?: boolean;
}

/** A cancelled transaction's failed conditions, each with the item's state at that moment. */
export type TransactOutcome<Role extends string> =
  | { readonly kind: 'committed' }
  | {
      readonly kind: 'conditions_failed';
      readonly failed: ReadonlyMap<Role, Record<string, unknown> | undefined>;
    };

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly random: () => number;
  readonly newToken: () => string;
  /** Called before each retry, e.g. to count conflicts. */
  readonly onRetry?: (reason: string) => void;
}

const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 6,
  baseDelayMs: 20,
  maxDelayMs: 400,
  sleep,
  random: Math.random,
  newToken: randomUUID,
};

/** What every store is built from: one client, one table, optional retry tuning. */
export interface StoreOptions {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  readonly retry?: Partial<RetryPolicy>;
}

export const retryPolicy = (options: StoreOptions): RetryPolicy => ({
  ...DEFAULT_RETRY,
  ...options.retry,
});

const RETRYABLE_REASONS = new Set([
  'TransactionConflict',
  'ThrottlingError',
  'ProvisionedThroughputExceeded',
]);

/**
 * Runs ONE TransactWriteItems, retrying cancellations caused by contention or throttling with
 * full-jitter backoff. Each attempt carries one random ClientRequestToken, which the SDK's own
 * retries of that attempt reuse: a lost response followed by an SDK retry is answered from the
 * token instead of being applied twice. A fresh token per attempt is safe because an attempt is
 * only repeated after DynamoDB answered that it was cancelled.
 */
export async function transactWithRetry<Role extends string>(
  client: DynamoDBClient,
  parts: readonly TransactPart<Role>[],
  policy: RetryPolicy = DEFAULT_RETRY,
): Promise<TransactOutcome<Role>> {
  const TransactItems = parts.map((p) => p.item);
  for (let attempt = 1; ; attempt++) {
    try {
      await client.send(
        new TransactWriteItemsCommand({ TransactItems, ClientRequestToken: policy.newToken() }),
      );
      return { kind: 'committed' };
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw storageError(error);
      const reasons = error.CancellationReasons ?? [];
      const failed = failedConditions(parts, reasons);
      const settled = parts.some((part) => part.decisive && failed.has(part.role));
      const retryIndex = reasons.findIndex((r) => RETRYABLE_REASONS.has(r.Code ?? ''));
      if (retryIndex >= 0 && !settled) {
        const reason = reasons[retryIndex]?.Code ?? 'unknown';
        if (attempt >= policy.maxAttempts) throw exhausted(parts[retryIndex]?.role, reason, error);
        policy.onRetry?.(reason);
        await policy.sleep(
          fullJitterMs(attempt, policy.baseDelayMs, policy.maxDelayMs, policy.random),
        );
        continue;
      }
      if (failed.size === 0) throw new InternalError(error);
      return { kind: 'conditions_failed', failed };
    }
  }
}

/** Contention on the idempotency record itself means another request holds the key. */
function exhausted(role: string | undefined, reason: string, cause: unknown): Error {
  if (role === 'claim' && reason === 'TransactionConflict')
    return new IdempotencyKeyInUseError(cause);
  return new UnavailableError(cause);
}

/** Each failed condition by role, with the item's state at that moment (ALL_OLD) when returned. */
function failedConditions<Role extends string>(
  parts: readonly TransactPart<Role>[],
  reasons: readonly CancellationReason[],
): Map<Role, Record<string, unknown> | undefined> {
  const failed = new Map<Role, Record<string, unknown> | undefined>();
  reasons.forEach((reason, index) => {
    const part = parts[index];
    if (reason.Code === 'ConditionalCheckFailed' && part) {
      failed.set(part.role, reason.Item ? unmarshall(reason.Item) : undefined);
    }
  });
  return failed;
}
