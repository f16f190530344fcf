import { randomUUID } from 'node:crypto';
import { signCallback } from '../functions/core/signature';
import { CliError } from './errors';

/** Contract §7: what a worker reports about one execution. */
export interface CallbackSpec {
  readonly applicationId: string;
  readonly executionId: string;
  readonly taskId?: string;
  readonly sequence: number;
  readonly status?: string;
  readonly progress?: number;
  /** The event id; a fresh UUID when omitted (the same id again is a `duplicate`). */
  readonly id?: string;
}

const CALLBACK_SOURCE = 'urn:idempotent-ledger:cli';
const CALLBACK_TYPE = 'export.execution.progress';

/** The CloudEvents 1.0 body, serialised once: the signature covers these exact bytes. */
export function callbackBody(spec: CallbackSpec, now: Date = new Date()): string {
  return JSON.stringify({
    specversion: '1.0',
    id: spec.id ?? randomUUID(),
    source: CALLBACK_SOURCE,
    type: CALLBACK_TYPE,
    time: now.toISOString(),
    sequence: spec.sequence,
    applicationid: spec.applicationId,
    executionid: spec.executionId,
    ...(spec.taskId === undefined ? {} : { taskid: spec.taskId }),
    data: {
      ...(spec.status === undefined ? {} : { status: spec.status }),
      ...(spec.progress === undefined ? {} : { progress: spec.progress }),
    },
  });
}

export interface CallbackResponse {
  readonly status: number;
  readonly text: string;
  /** `outcome` of a 200 answer (applied, duplicate, stale, superseded). */
  readonly outcome: string | undefined;
}

/** Signs `body` with every secret (header `Callback-Signature`) and POSTs it to `apiUrl + path`. */
export async function postCallback(input: {
  readonly fetch: typeof fetch;
  readonly apiUrl: string;
  readonly path: string;
  readonly body: string;
  readonly secrets: readonly string[];
  readonly now?: Date;
  readonly signal?: AbortSignal;
}): Promise<CallbackResponse> {
  const t = Math.floor((input.now ?? new Date()).getTime() / 1000);
  const url = `${input.apiUrl}${input.path}`;
  let res: Response;
  try {
    res = await input.fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'Callback-Signature': signCallback(input.secrets, t, Buffer.from(input.body, 'utf8')),
      },
      body: input.body,
      ...(input.signal ? { signal: input.signal } : {}),
    });
  } catch (error) {
    if (input.signal?.aborted) throw error;
    throw unreachable(input.apiUrl, error);
  }
  const text = await res.text();
  let outcome: string | undefined;
  if (res.status === 200) {
    try {
      const parsed = JSON.parse(text) as { outcome?: unknown };
      if (typeof parsed.outcome === 'string') outcome = parsed.outcome;
    } catch {
      // not JSON: reported as is
    }
  }
  return { status: res.status, text, outcome };
}

/** A fetch that never reached the server: say where it tried and what to check. */
export function unreachable(apiUrl: string, error: unknown): CliError {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
  const reason = cause || (error instanceof Error ? error.message : String(error));
  return new CliError(
    `cannot reach the HTTP API at ${apiUrl} (${reason}). Is \`npm start\` running? ` +
      'Set PORT or pass --url if it is not on the default port.',
  );
}
