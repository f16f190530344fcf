import { randomUUID } from 'node:crypto';
import { unreachable } from './callbacks';
import { CliError } from './errors';

export interface ApiAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: Record<string, unknown>;
}

/** A small client for the local HTTP API, with its X-Principal-Id identity. */
export function apiClient(base: string, principal: string, fetchImpl: typeof fetch) {
  return async (
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    key: string = randomUUID(),
  ): Promise<ApiAnswer> => {
    const headers: Record<string, string> = { 'X-Principal-Id': principal };
    if (method === 'POST') {
      headers['Idempotency-Key'] = key;
      headers['Content-Type'] = 'application/json';
    }
    let res: Response;
    try {
      res = await fetchImpl(`${base}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      throw unreachable(base, error);
    }
    const text = await res.text();
    let json: Record<string, unknown> = {};
    try {
      json = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
    } catch {
      // not JSON; `text` has it
    }
    return { status: res.status, headers: res.headers, text, json };
  };
}

/** Throws a CliError with the problem's code and detail unless the status is `expected`. */
export function expectStatus(answer: ApiAnswer, expected: number, what: string): ApiAnswer {
  if (answer.status === expected) return answer;
  const code = typeof answer.json.code === 'string' ? ` ${answer.json.code}` : '';
  const detail = typeof answer.json.detail === 'string' ? `: ${answer.json.detail}` : '';
  throw new CliError(
    `${what} answered ${answer.status}${code}${detail}${detail ? '' : ` ${answer.text.slice(0, 300)}`}`,
  );
}
