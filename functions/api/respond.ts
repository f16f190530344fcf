import { PROBLEM_CONTENT_TYPE, type Problem } from './problems';
import type { HttpResult } from './types';

const BASE_HEADERS = { 'cache-control': 'no-store' };

function contentTypeFor(statusCode: number): string {
  return statusCode >= 400 ? PROBLEM_CONTENT_TYPE : 'application/json';
}

/** A response whose body is already serialized (first answers and replays alike). */
export function rawJson(statusCode: number, body: string, replayed = false): HttpResult {
  return {
    statusCode,
    headers: {
      ...BASE_HEADERS,
      'content-type': contentTypeFor(statusCode),
      ...(replayed ? { 'idempotent-replayed': 'true' } : {}),
    },
    body,
  };
}

/** `204 No Content`: no body, no content type. */
export const noContent = (): HttpResult => ({
  statusCode: 204,
  headers: { ...BASE_HEADERS },
  body: '',
});

export function json(statusCode: number, value: unknown): HttpResult {
  return rawJson(statusCode, JSON.stringify(value));
}

/** Every error reaches the caller through here, as problem+json. */
export function problemResponse(problem: Problem): HttpResult {
  const result = rawJson(problem.status, problem.body);
  if (problem.retryAfterSeconds !== undefined) {
    result.headers['retry-after'] = String(problem.retryAfterSeconds);
  }
  return result;
}
