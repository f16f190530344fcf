import { sleep } from '../../functions/domain/shared/retry';

/**
 * Calls `probe` every 150 ms until it succeeds, for at most `timeoutMs`; then fails with
 * "<what> did not answer" and the last error as cause. `signal` stops it at once.
 */
export async function waitUntilAnswering(
  what: string,
  probe: (signal: AbortSignal | undefined) => Promise<unknown>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    signal?.throwIfAborted();
    try {
      await probe(signal);
      return;
    } catch (error) {
      signal?.throwIfAborted();
      if (Date.now() > deadline) {
        throw new Error(`${what} did not answer in ${timeoutMs} ms`, { cause: error });
      }
      await sleep(150, signal);
    }
  }
}
