import { createLedgerClient, type LedgerClient } from '../client/index';
import { answerText } from './callbacks';
import { CliError } from './errors';

/**
 * The CLI talks to the API through the typed client (client/, docs/client.md): with the local
 * stack's X-Principal-Id when it acts for a principal, with no identity for signed callbacks.
 */
export function ledgerClient(
  base: string,
  fetchImpl: typeof fetch,
  principal?: string,
): LedgerClient {
  return createLedgerClient({
    baseUrl: base,
    auth: principal === undefined ? { kind: 'none' } : { kind: 'local', principal },
    fetch: fetchImpl,
  });
}

/** What every typed-client call resolves to. */
export interface Answer<T> {
  readonly data?: T;
  readonly error?: unknown;
  readonly response: Response;
}

/** The answer's data; a CliError with the problem's code and detail unless the status is `expected`. */
export function expectStatus<T>(answer: Answer<T>, expected: number, what: string): T {
  const { data, error, response } = answer;
  if (response.status === expected && data !== undefined) return data;
  const problem = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    detail?: unknown;
  };
  const code = typeof problem.code === 'string' ? ` ${problem.code}` : '';
  const detail = typeof problem.detail === 'string' ? `: ${problem.detail}` : '';
  throw new CliError(
    `${what} answered ${response.status}${code}${detail}${detail ? '' : ` ${answerText(error).slice(0, 300)}`}`,
  );
}

/** How a demo wraps each typed-client call (e.g. to tell an unreachable API apart). */
export type Call = <T>(promise: Promise<T>) => Promise<T>;

/** An account's balance, as the demos read it between their steps. */
export async function balanceOf(api: LedgerClient, call: Call, accountId: string): Promise<number> {
  const account = expectStatus(
    await call(api.GET('/v1/accounts/{accountId}', { params: { path: { accountId } } })),
    200,
    'GET /v1/accounts/{id}',
  );
  return account.balance;
}
