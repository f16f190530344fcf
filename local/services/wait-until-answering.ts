import { sleep } from '../../functions/domain/shared/retry';

export interface WaitOptions {
  /**
   * A refused connection ends the wait at once (`ConnectionRefusedError`): right for an
   * endpoint that should already run, wrong for a server still starting. @default false
   */
  readonly refusalIsFinal?: boolean;
}

/** Nothing listens at the endpoint: waiting longer would not change that. */
export class ConnectionRefusedError extends Error {
  constructor(what: string, cause: unknown) {
    super(`${what} refused the connection: nothing listens there`, { cause });
    this.name = 'ConnectionRefusedError';
  }
}

/**
 * Calls `probe` every 150 ms until it succeeds, for at most `timeoutMs`; then fails with
 * "<what> did not answer" and the last error as cause. `signal` stops it at once.
 */
export async function waitUntilAnswering(
  what: string,
  probe: (signal: AbortSignal | undefined) => Promise<unknown>,
  timeoutMs: number,
  signal?: AbortSignal,
  options: WaitOptions = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    signal?.throwIfAborted();
    try {
      await probe(signal);
      return;
    } catch (error) {
      signal?.throwIfAborted();
      if (options.refusalIsFinal && isConnectionRefused(error)) {
        throw new ConnectionRefusedError(what, error);
      }
      if (Date.now() > deadline) {
        throw new Error(`${what} did not answer in ${timeoutMs} ms`, { cause: error });
      }
      await sleep(150, signal);
    }
  }
}

/** ECONNREFUSED anywhere in the error, its causes or (happy eyeballs) its aggregated errors. */
export function isConnectionRefused(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 5) return false;
  if ((error as NodeJS.ErrnoException).code === 'ECONNREFUSED') return true;
  const nested = error instanceof AggregateError ? error.errors : [];
  return [error.cause, ...nested].some((inner) => isConnectionRefused(inner, depth + 1));
}
