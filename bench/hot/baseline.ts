/**
 * Today's code, the baseline of the one-account section (docs/contract.md §20): the retry
 * policy main shipped before issue 21 — 6 attempts, full jitter from 20 ms doubling to 400 ms,
 * no time budget and no latency tuning; the sequence loop's 8 attempts from 10 ms to 200 ms —
 * and one transaction per record. The new code runs in the same bench run beside it.
 */
import { UNMEASURED } from '../../functions/domain/shared/retry';
import type { RetryPolicy } from '../../functions/dynamodb/table/transact';

export const TODAYS_TRANSACTION_RETRY: Partial<RetryPolicy> = {
  maxAttempts: 6,
  baseDelayMs: 20,
  maxDelayMs: 400,
  budgetMs: Number.POSITIVE_INFINITY,
  latency: UNMEASURED,
  conflictJitter: 'full',
};

export const TODAYS_SEQUENCE_RETRY = {
  maxAttempts: 8,
  baseDelayMs: 10,
  maxDelayMs: 200,
  budgetMs: Number.POSITIVE_INFINITY,
  latency: UNMEASURED,
} as const;
