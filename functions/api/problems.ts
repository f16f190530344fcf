import { BatchRejectedError } from '../domain/batches/errors';
import type { StoredResponse } from '../domain/idempotency/model';
import type { ResponsePresenter } from '../domain/idempotency/port';
import { LegsUnbalancedError } from '../domain/ledger-transactions/errors';
import {
  DomainError,
  type ErrorCode,
  IdempotencyKeyInUseError,
  InternalError,
  InvalidInputError,
} from '../domain/shared/errors';
import { DOCUMENT_ROUTES } from './document/spec';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/**
 * A problem's `type`: the page documenting its code, served by the API itself (the public
 * `GET /v1/problems/{code}`), as a reference relative to the API's base URL, so it resolves on
 * every domain that serves the API and stays one string per code (docs/contract.md §3).
 */
export const problemType = (code: ErrorCode): string =>
  DOCUMENT_ROUTES.getProblemType.path.replace('{code}', code);

interface ProblemKind {
  readonly status: number;
  readonly title: string;
  /** Seconds a client should wait before retrying (sent as `Retry-After`). */
  readonly retryAfterSeconds?: number;
}

/**
 * The one table from domain code to HTTP status and title (docs/contract.md §3). A new code
 * does not compile until it has a row here.
 */
export const PROBLEMS: Record<ErrorCode, ProblemKind> = {
  validation_failed: {
    status: 400,
    title: 'Validation failed',
  },
  idempotency_key_missing: {
    status: 400,
    title: 'Idempotency-Key required',
  },
  idempotency_key_invalid: {
    status: 400,
    title: 'Idempotency-Key invalid',
  },
  invalid_callback: {
    status: 400,
    title: 'Invalid callback',
  },
  unauthenticated: {
    status: 401,
    title: 'Unauthenticated',
  },
  invalid_signature: {
    status: 401,
    title: 'Invalid signature',
  },
  signature_expired: {
    status: 401,
    title: 'Signature expired',
  },
  not_found: {
    status: 404,
    title: 'Not found',
  },
  insufficient_funds: {
    status: 409,
    title: 'Insufficient funds',
  },
  payment_id_conflict: {
    status: 409,
    title: 'paymentId already used',
  },
  task_not_terminal: {
    status: 409,
    title: 'Task not terminal',
  },
  task_not_succeeded: {
    status: 409,
    title: 'Task not succeeded',
  },
  rerun_limit_reached: {
    status: 409,
    title: 'Rerun limit reached',
  },
  idempotency_key_in_use: {
    status: 409,
    title: 'Idempotency-Key in use',
    retryAfterSeconds: 1,
  },
  result_expired: {
    status: 410,
    title: 'Result expired',
  },
  payload_too_large: {
    status: 413,
    title: 'Payload too large',
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported media type',
  },
  idempotency_key_reused: {
    status: 422,
    title: 'Idempotency-Key reused',
  },
  currency_mismatch: {
    status: 422,
    title: 'Currency mismatch',
  },
  balance_limit_exceeded: {
    status: 422,
    title: 'Balance limit exceeded',
  },
  internal: {
    status: 500,
    title: 'Internal error',
  },
  unavailable: {
    status: 503,
    title: 'Service unavailable',
    retryAfterSeconds: 1,
  },
  hold_not_active: {
    status: 409,
    title: 'Hold not active',
  },
  hold_expired: {
    status: 409,
    title: 'Hold expired',
  },
  // Only ledger events can name two owners; over HTTP that is not_found. Kept for completeness.
  owner_mismatch: {
    status: 422,
    title: 'Owner mismatch',
  },
  account_closed: {
    status: 409,
    title: 'Account closed',
  },
  account_not_empty: {
    status: 409,
    title: 'Account not empty',
  },
  reversal_exceeds_original: {
    status: 409,
    title: 'Reversal exceeds original',
  },
  not_reversible: {
    status: 409,
    title: 'Not reversible',
  },
  period_closed: {
    status: 409,
    title: 'Period closed',
  },
  period_already_closed: {
    status: 409,
    title: 'Period already closed',
  },
  credit_pending: {
    status: 409,
    title: 'Credit pending',
    retryAfterSeconds: 1,
  },
  pending_credits: {
    status: 409,
    title: 'Pending credits',
  },
  legs_unbalanced: {
    status: 422,
    title: 'Legs unbalanced',
  },
  monitor_limit_reached: {
    status: 409,
    title: 'Monitor limit reached',
  },
  webhook_endpoint_limit_reached: {
    status: 409,
    title: 'Webhook endpoint limit reached',
  },
  batch_too_large: {
    status: 400,
    title: 'Batch too large',
  },
  batch_rejected: {
    status: 409,
    title: 'Batch rejected',
  },
};

export interface Problem {
  readonly code: ErrorCode;
  readonly status: number;
  readonly body: string;
  readonly retryAfterSeconds: number | undefined;
}

/**
 * The one mapping from errors to problem+json (RFC 9457). Unknown errors become 500 without
 * their message, so no stack trace, AWS error name or table name reaches a caller.
 */
export function toProblem(error: unknown): Problem {
  const known = error instanceof DomainError ? error : new InternalError(error);
  const { status, title, retryAfterSeconds } = PROBLEMS[known.code];
  const errors =
    known instanceof InvalidInputError || known instanceof LegsUnbalancedError ? known.errors : [];
  const problem = {
    type: problemType(known.code),
    title,
    status,
    detail: known.detail,
    code: known.code,
    ...(errors.length > 0 ? { errors } : {}),
    ...(known instanceof BatchRejectedError ? batchRejection(known) : {}),
  };
  // A held batch lease knows when it ends (docs/contract.md §25): that is the wait.
  const retryAfter =
    known instanceof IdempotencyKeyInUseError ? known.retryAfterSeconds : undefined;
  return {
    code: known.code,
    status,
    body: JSON.stringify(problem),
    retryAfterSeconds: retryAfter ?? retryAfterSeconds,
  };
}

/**
 * The extension members of `batch_rejected` (docs/contract.md §25): the failing operation's
 * index and its problem as that operation alone would have been answered.
 */
function batchRejection(error: BatchRejectedError): { failedOperation: number; cause: unknown } {
  return { failedOperation: error.failedOperation, cause: JSON.parse(error.response.body) };
}

/** Success statuses of idempotent commands. */
const SUCCESS_STATUS = { created: 201, accepted: 202, ok: 200 } as const;

/**
 * What an idempotency record stores for the domain: the first response exactly as sent, so a
 * replay returns it byte for byte (docs/contract.md §4).
 */
export const httpResponses: ResponsePresenter = {
  success: (resource, outcome): StoredResponse => ({
    statusCode: SUCCESS_STATUS[outcome],
    body: JSON.stringify(resource),
  }),
  rejection: (error): StoredResponse => {
    const problem = toProblem(error);
    return { statusCode: problem.status, body: problem.body };
  },
};
