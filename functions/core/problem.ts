import { AppError, InternalError } from './errors';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export interface ProblemResponse {
  readonly status: number;
  readonly body: string;
  readonly retryAfterSeconds: number | undefined;
}

/**
 * The one mapping from errors to problem+json (RFC 9457). Unknown errors become 500 without
 * their message, so no stack trace, AWS error name or table name reaches a caller.
 */
export function toProblem(error: unknown): ProblemResponse {
  const app = error instanceof AppError ? error : new InternalError(error);
  const problem = {
    type: `https://idempotent-ledger.dev/problems/${app.code}`,
    title: app.title,
    status: app.status,
    detail: app.message,
    code: app.code,
    ...(app.errors && app.errors.length > 0 ? { errors: app.errors } : {}),
  };
  return {
    status: app.status,
    body: JSON.stringify(problem),
    retryAfterSeconds: app.retryAfterSeconds,
  };
}
