import { applicationOfCallbackPath } from '../../contract/names';
import type { CallbackSecrets } from '../../domain/callbacks/port';
import { signCallback } from '../../domain/callbacks/signature';
import type { ExecutionReporter, ExecutionUpdate } from '../../domain/exports/port';
import { epochSeconds } from '../../domain/shared/time';

/** `source` and `type` of the CloudEvents the export worker sends (docs/contract.md §7, §12). */
export const WORKER_EVENT_SOURCE = 'urn:idempotent-ledger:export-worker';
export const WORKER_EVENT_TYPE = 'export.execution.progress';

/** The CloudEvents 1.0 body of one update, serialised once: the signature covers these bytes. */
export function callbackEnvelope(update: ExecutionUpdate, id: string, now: Date): string {
  const { job } = update;
  return JSON.stringify({
    specversion: '1.0',
    id,
    source: WORKER_EVENT_SOURCE,
    type: WORKER_EVENT_TYPE,
    time: now.toISOString(),
    sequence: update.sequence,
    applicationid: applicationOf(job.callbackPath),
    executionid: job.executionId,
    taskid: job.taskId,
    data: {
      status: update.status,
      progress: update.progress,
      ...(update.result ? { result: update.result } : {}),
    },
  });
}

function applicationOf(callbackPath: string): string {
  const applicationId = applicationOfCallbackPath(callbackPath);
  if (!applicationId) throw new Error(`callbackPath "${callbackPath}" is not a callback path`);
  return applicationId;
}

/** The API answered the callback with a 4xx: retrying the same bytes cannot help. */
export class CallbackRejectedError extends Error {
  constructor(
    readonly status: number,
    body: string,
  ) {
    super(`callback rejected with HTTP ${status}: ${body.slice(0, 300)}`);
    this.name = 'CallbackRejectedError';
  }
}

export interface CallbackReporterOptions {
  /** Base URL of the HTTP API (the callback path is appended). */
  readonly apiUrl: string;
  readonly secrets: CallbackSecrets;
  readonly fetch?: typeof fetch;
  /** Tries per update when the API is unreachable or answers 429/5xx. @default 4 */
  readonly attempts?: number;
  /** Per request. @default 10 000 */
  readonly timeoutMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly clock: () => Date;
  readonly newId: () => string;
}

/**
 * Posts each update to the job's callback path, signed with the application's active secrets.
 * A retry resends the same event id, so an update that landed but whose answer was lost comes
 * back `duplicate` instead of applying twice.
 */
export function createCallbackReporter(options: CallbackReporterOptions): ExecutionReporter {
  const send = options.fetch ?? fetch;
  const attempts = options.attempts ?? 4;
  const pause = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  const { clock, newId } = options;

  return {
    async report(update) {
      const secrets = await options.secrets.secretsFor(applicationOf(update.job.callbackPath));
      if (secrets.length === 0) throw new Error('no callback secret for the export application');
      const body = callbackEnvelope(update, newId(), clock());
      let last: unknown;
      for (let attempt = 1; attempt <= attempts; attempt++) {
        if (attempt > 1) await pause(250 * 2 ** (attempt - 2));
        const t = epochSeconds(clock());
        try {
          const response = await send(`${options.apiUrl}${update.job.callbackPath}`, {
            method: 'POST',
            headers: {
              'Content-Type': 'application/json',
              'Callback-Signature': signCallback(secrets, t, Buffer.from(body, 'utf8')),
            },
            body,
            signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
          });
          const text = await response.text();
          if (response.status === 200) return outcomeOf(text);
          if (response.status !== 429 && response.status < 500) {
            throw new CallbackRejectedError(response.status, text);
          }
          last = new Error(`callback answered HTTP ${response.status}`);
        } catch (error) {
          if (error instanceof CallbackRejectedError) throw error;
          last = error;
        }
      }
      throw new Error(`callback not delivered after ${attempts} attempts`, { cause: last });
    },
  };
}

function outcomeOf(text: string): string {
  try {
    const outcome = (JSON.parse(text) as { outcome?: unknown }).outcome;
    return typeof outcome === 'string' ? outcome : 'unknown';
  } catch {
    return 'unknown';
  }
}
