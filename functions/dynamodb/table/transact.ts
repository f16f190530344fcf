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
import {
  type Backoff,
  DEFAULT_BACKOFF,
  definedOnly,
  LatencyEstimate,
  nextPause,
} from '../../domain/shared/retry';
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

/** Cancelled for contention or throttling, and the caller asked to retry it itself. */
export interface Contended {
  readonly kind: 'contended';
  readonly reason: string;
}

export interface TransactOptions {
  /**
   * `return`: a cancellation for contention or throttling is answered `contended` at once
   * instead of being retried with the same items — for a write built from a read (an
   * optimistic version), which another writer holding the item has probably just made stale,
   * so the caller reads again before it retries. @default 'retry'
   */
  readonly contention?: 'retry' | 'return';
}

/**
 * How a store retries a cancelled transaction: the shared backoff (capped exponential, full
 * jitter, based on the store's own commit latency, bounded by a time budget and the
 * invocation's deadline; `domain/shared/retry.ts`) plus what only transactions need.
 */
export interface RetryPolicy extends Backoff {
  readonly newToken: () => string;
  /**
   * The pauses after a cancellation for a held item (TransactionConflict): `contended` centres
   * the jitter on the doubling (`contendedPauseMs`), `full` is full jitter like throttling.
   * @default 'contended'
   */
  readonly conflictJitter?: 'full' | 'contended';
  /** Called before each retry, e.g. to count conflicts. */
  readonly onRetry?: (reason: string) => void;
}

const DEFAULT_RETRY: RetryPolicy = { ...DEFAULT_BACKOFF, newToken: randomUUID };

/** What every store is built from: one client, one table, optional retry tuning. */
export interface StoreOptions {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  readonly retry?: Partial<RetryPolicy>;
}

/** A store's policy: its own latency estimate, so its retries follow its own commit times. */
export const retryPolicy = (options: StoreOptions): RetryPolicy => ({
  ...DEFAULT_RETRY,
  latency: new LatencyEstimate(),
  ...definedOnly(options.retry ?? {}),
});

const RETRYABLE_REASONS = new Set([
  'TransactionConflict',
  'ThrottlingError',
  'ProvisionedThroughputExceeded',
]);

/**
 * Runs ONE TransactWriteItems, retrying cancellations caused by contention or throttling with
 * the store's backoff until its time budget or the invocation's deadline ends (then
 * `idempotency_key_in_use` when the claim itself stayed contended, else `unavailable`). Each attempt carries one random ClientRequestToken, which the SDK's own
 * retries of that attempt reuse: a lost response followed by an SDK retry is answered from the
 * token instead of being applied twice. A fresh token per attempt is safe because an attempt is
 * only repeated after DynamoDB answered that it was cancelled.
 */
export function transactWithRetry<Role extends string>(
  client: DynamoDBClient,
  parts: readonly TransactPart<Role>[],
  policy?: RetryPolicy,
): Promise<TransactOutcome<Role>>;
export function transactWithRetry<Role extends string>(
  client: DynamoDBClient,
  parts: readonly TransactPart<Role>[],
  policy: RetryPolicy,
  options: TransactOptions,
): Promise<TransactOutcome<Role> | Contended>;
export async function transactWithRetry<Role extends string>(
  client: DynamoDBClient,
  parts: readonly TransactPart<Role>[],
  policy: RetryPolicy = DEFAULT_RETRY,
  options: TransactOptions = {},
): Promise<TransactOutcome<Role> | Contended> {
  const TransactItems = parts.map((p) => p.item);
  const startedAt = policy.now();
  for (let attempt = 1; ; attempt++) {
    const begun = policy.now();
    try {
      await client.send(
        new TransactWriteItemsCommand({ TransactItems, ClientRequestToken: policy.newToken() }),
      );
      policy.latency?.observe(policy.now() - begun);
      return { kind: 'committed' };
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw storageError(error);
      const reasons = error.CancellationReasons ?? [];
      const failed = failedConditions(parts, reasons);
      const settled = parts.some((part) => part.decisive && failed.has(part.role));
      const retryIndex = reasons.findIndex((r) => RETRYABLE_REASONS.has(r.Code ?? ''));
      if (retryIndex >= 0 && !settled) {
        const reason = reasons[retryIndex]?.Code ?? 'unknown';
        if (options.contention === 'return') {
          policy.onRetry?.(reason);
          return { kind: 'contended', reason };
        }
        // A held item is held for about one commit: never retry much sooner (contendedPauseMs).
        const jitter =
          reason === 'TransactionConflict' ? (policy.conflictJitter ?? 'contended') : 'full';
        const pause = nextPause(policy, attempt, startedAt, jitter);
        if (pause === undefined) throw exhausted(parts[retryIndex]?.role, reason, error);
        policy.onRetry?.(reason);
        await policy.sleep(pause);
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
