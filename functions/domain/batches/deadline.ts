import { BATCH_ANSWER_MARGIN_MS } from '../../contract/batches';
import { API_GATEWAY_BUDGET_MS, LEDGER_FUNCTION_TIMEOUT_SECONDS } from '../../contract/http';
import type { Invocation } from '../shared/invocation';

/** When a batch's writes stop and when its lease expires (epoch ms). */
export interface BatchTimes {
  /** Retries stop at it; an operation not started by then answers `503 unavailable`. */
  readonly deadline: number;
  /** The function is stopped by then: nothing of the holder runs after it (docs/contract.md §25). */
  readonly leaseExpiresAtMs: number;
}

/**
 * A batch's deadline (docs/contract.md §25): min(the function's remaining time − 1.5 s for the
 * answer and the lease's release, 29 s − elapsed since the request started, as API Gateway
 * stops at 30 s), and no later than a deadline already set around it. Without an invocation
 * the deployed timeout is assumed from `nowMs`. The lease lasts as long as the invocation.
 */
export function batchTimes(
  nowMs: number,
  invocation: Invocation | undefined,
  outer?: number,
): BatchTimes {
  const { startedAtMs, endsAtMs } = invocation ?? {
    startedAtMs: nowMs,
    endsAtMs: nowMs + LEDGER_FUNCTION_TIMEOUT_SECONDS * 1000,
  };
  const deadline = Math.min(
    endsAtMs - BATCH_ANSWER_MARGIN_MS,
    startedAtMs + API_GATEWAY_BUDGET_MS,
    outer ?? Number.POSITIVE_INFINITY,
  );
  return { deadline, leaseExpiresAtMs: Math.max(endsAtMs, deadline + BATCH_ANSWER_MARGIN_MS) };
}

/** `Retry-After` on a held lease: its remaining time in seconds, rounded up (at least 1). */
export const retryAfterOf = (leaseExpiresAtMs: number, nowMs: number): number =>
  Math.max(1, Math.ceil((leaseExpiresAtMs - nowMs) / 1000));
