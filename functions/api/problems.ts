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
  /**
   * When the code is answered, as docs/contract.md §3 words it (a test holds the two equal);
   * its problem type page (`/v1/problems/<code>`) shows it.
   */
  readonly description: string;
}

/**
 * The one table from domain code to HTTP status and title (docs/contract.md §3). A new code
 * does not compile until it has a row here.
 */
export const PROBLEMS: Record<ErrorCode, ProblemKind> = {
  validation_failed: {
    status: 400,
    title: 'Validation failed',
    description:
      'body, path, query or a header does not match the schema (unknown body fields included), or `Idempotency-Key` holds more than one value (§4)',
  },
  idempotency_key_missing: {
    status: 400,
    title: 'Idempotency-Key required',
    description: 'a POST that needs `Idempotency-Key` has none',
  },
  idempotency_key_invalid: {
    status: 400,
    title: 'Idempotency-Key invalid',
    description: 'the key is empty, longer than 255 characters, or not printable ASCII',
  },
  invalid_callback: {
    status: 400,
    title: 'Invalid callback',
    description: 'the callback envelope is invalid or names an unknown execution',
  },
  unauthenticated: {
    status: 401,
    title: 'Unauthenticated',
    description: 'no principal',
  },
  invalid_signature: {
    status: 401,
    title: 'Invalid signature',
    description: 'callback signature header missing, malformed, or matching no active secret',
  },
  signature_expired: {
    status: 401,
    title: 'Signature expired',
    description: 'callback timestamp more than 300 s away from now',
  },
  not_found: {
    status: 404,
    title: 'Not found',
    description: 'unknown, or owned by someone else',
  },
  insufficient_funds: {
    status: 409,
    title: 'Insufficient funds',
    description:
      "a debit, transfer, ledger leg, hold, reversal or export fee larger than the **available** balance plus the account's `overdraftLimit` (§11, §17), or an `overdraftLimit` lowered below what the account already draws (§24)",
  },
  payment_id_conflict: {
    status: 409,
    title: 'paymentId already used',
    description: 'the `paymentId` was already used by another request on this account',
  },
  task_not_terminal: {
    status: 409,
    title: 'Task not terminal',
    description: 'a rerun while the current execution is not terminal',
  },
  task_not_succeeded: {
    status: 409,
    title: 'Task not succeeded',
    description: 'the result of a task whose current execution has not `SUCCEEDED` (§12)',
  },
  rerun_limit_reached: {
    status: 409,
    title: 'Rerun limit reached',
    description: 'a rerun after `MAX_RERUNS_PER_TASK` (default 20) reruns (§12)',
  },
  idempotency_key_in_use: {
    status: 409,
    title: 'Idempotency-Key in use',
    retryAfterSeconds: 1,
    description:
      'the same key is still contended after retries, or a batch with the key is still running (§25); sends `Retry-After`',
  },
  result_expired: {
    status: 410,
    title: 'Result expired',
    description:
      'the export file is older than `EXPORT_RETENTION_DAYS` or gone from the bucket (§14)',
  },
  payload_too_large: {
    status: 413,
    title: 'Payload too large',
    description: 'HTTP body over 64 KiB',
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported media type',
    description: 'the body is not JSON',
  },
  idempotency_key_reused: {
    status: 422,
    title: 'Idempotency-Key reused',
    description: 'same (principal, operation, key) with a different request',
  },
  currency_mismatch: {
    status: 422,
    title: 'Currency mismatch',
    description:
      "the request's currency differs from the account's; for a ledger transaction `detail` names the leg (§35)",
  },
  balance_limit_exceeded: {
    status: 422,
    title: 'Balance limit exceeded',
    description: 'the credit would push the balance past 2^53 − 1 minor units',
  },
  internal: {
    status: 500,
    title: 'Internal error',
    description: 'anything unexpected',
  },
  unavailable: {
    status: 503,
    title: 'Service unavailable',
    retryAfterSeconds: 1,
    description:
      "storage unavailable or throttled after retries, or the health check's read failed; sends `Retry-After`",
  },
  hold_not_active: {
    status: 409,
    title: 'Hold not active',
    description: 'capture or void of a hold already captured or voided (§11)',
  },
  hold_expired: {
    status: 409,
    title: 'Hold expired',
    description: 'capture or void of a hold at or after its `expiresAt`, swept or not (§11)',
  },
  // Only ledger events can name two owners; over HTTP that is not_found. Kept for completeness.
  owner_mismatch: {
    status: 422,
    title: 'Owner mismatch',
    description:
      'not answered over HTTP today (a foreign account there is `404`); the code a `ledger.transfer.v1` event between two owners is dead-lettered with (§10)',
  },
  account_closed: {
    status: 409,
    title: 'Account closed',
    description: 'any effect on a closed account (§17)',
  },
  account_not_empty: {
    status: 409,
    title: 'Account not empty',
    description: 'closing an account whose balance or available is not 0 (§17)',
  },
  reversal_exceeds_original: {
    status: 409,
    title: 'Reversal exceeds original',
    description: 'reversals of one movement would add up to more than it moved (§16)',
  },
  not_reversible: {
    status: 409,
    title: 'Not reversible',
    description:
      'reversing a reversal, a leg of a transfer or ledger transaction, or anything §16 does not list',
  },
  period_closed: {
    status: 409,
    title: 'Period closed',
    description:
      "a movement effective at or before the account's `closedThrough` (§26); judged in the write",
  },
  period_already_closed: {
    status: 409,
    title: 'Period already closed',
    description: "a period close whose `through` is before the account's `closedThrough` (§26)",
  },
  pending_credits: {
    status: 409,
    title: 'Pending credits',
    description:
      'a period close while a deferred pending credit is effective at or before `through` (§24, §26)',
  },
  legs_unbalanced: {
    status: 422,
    title: 'Legs unbalanced',
    description:
      "a ledger transaction whose debits and credits differ in a currency (§16, §35): `detail` names the first such currency in leg order and its difference, `errors` lists each when the legs move several; **not recorded** (a 4xx of the request's shape, like 400)",
  },
  monitor_limit_reached: {
    status: 409,
    title: 'Monitor limit reached',
    description: 'an 11th balance monitor on one account: at most 10 (§28)',
  },
  webhook_endpoint_limit_reached: {
    status: 409,
    title: 'Webhook endpoint limit reached',
    description: "a principal's 21st webhook endpoint: at most 20 (§32)",
  },
  batch_too_large: {
    status: 400,
    title: 'Batch too large',
    description:
      'an `atomic` batch whose items cannot fit in one transaction (at most 100); answered before anything is claimed, **not recorded** (§25)',
  },
  batch_rejected: {
    status: 409,
    title: 'Batch rejected',
    description:
      'an operation of an `atomic` batch failed: `failedOperation` is its index, `cause` its problem; nothing was applied (§25)',
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
