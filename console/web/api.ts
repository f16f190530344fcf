import type { ConsoleError } from '../shared/api';

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
  const response = await fetch(path, { headers: { accept: 'application/json' } }).catch(
    unreachable,
  );
  return answer<T>(response);
}

/** POST a confirmed action. */
export async function postAction<T>(path: string, body: object): Promise<T> {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ ...body, confirm: true }),
  }).catch(unreachable);
  return answer<T>(response);
}
