import { CONSOLE_TOKEN_FRAGMENT, CONSOLE_TOKEN_HEADER, type ConsoleError } from '../shared/api';

const TOKEN_KEY = 'ledger-console-token';

/**
 * Takes this start's token from the URL the console printed (`…/console/#token=…`), keeps it
 * for this tab only (sessionStorage) and leaves the token out of the address bar (§31).
 */
export function adoptToken(): void {
  const found = new RegExp(`^#${CONSOLE_TOKEN_FRAGMENT}=([^&/]*)`).exec(location.hash);
  if (!found) return;
  sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(found[1] ?? ''));
  history.replaceState(null, '', `${location.pathname}#/accounts`);
}

/** The headers of every API call: the token (a 401 without it says how to get it). */
function headers(extra: Record<string, string> = {}): Record<string, string> {
  return {
    accept: 'application/json',
    [CONSOLE_TOKEN_HEADER]: sessionStorage.getItem(TOKEN_KEY) ?? '',
    ...extra,
  };
}

/** A failed call, in words: the console's own `{ error }`, or what went wrong on the way. */
export class ConsoleCallError extends Error {}

async function answer<T>(response: Response): Promise<T> {
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    throw new ConsoleCallError(`the console answered ${response.status} with something not JSON`);
  }
  if (!response.ok) {
    const error = (body as Partial<ConsoleError> | undefined)?.error;
    throw new ConsoleCallError(error ?? `the console answered ${response.status}`);
  }
  return body as T;
}

function unreachable(error: unknown): never {
  throw new ConsoleCallError(
    `the console did not answer (${error instanceof Error ? error.message : String(error)}): is it still running?`,
  );
}

/** GET a page's data. */
export async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(path, { headers: headers() }).catch(unreachable);
  return answer<T>(response);
}

/** POST a confirmed action. */
export async function postAction<T>(path: string, body: object): Promise<T> {
  const response = await fetch(path, {
    method: 'POST',
    headers: headers({ 'content-type': 'application/json' }),
    body: JSON.stringify({ ...body, confirm: true }),
  }).catch(unreachable);
  return answer<T>(response);
}
