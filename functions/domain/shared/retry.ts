/** Waiting and retrying, shared by the domain, the DynamoDB layer, the local stack and the CLI. */

/** Resolves after `ms`, or at once when `signal` aborts (or has already aborted). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Full-jitter backoff before attempt `attempt + 1`: random below min(max, base · 2^(attempt−1)). */
export function fullJitterMs(
  attempt: number,
  baseMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  return Math.floor(random() * Math.min(maxMs, baseMs * 2 ** (attempt - 1)));
}

/** What an optimistic attempt returns when a concurrent writer moved the item it read. */
export const MOVED = Symbol('moved');

export interface OptimisticRetryOptions {
  /** Attempts in all, the first included. @default 8 */
  readonly maxAttempts?: number;
  /** Waits between attempts (tests pass a no-op). */
  readonly sleep?: (ms: number) => Promise<void>;
}

/**
 * Read → decide → conditional write, again while the write reports MOVED: a burst on one item
 * contends on its version, so attempts back off with jitter (10 ms doubling up to 200 ms).
 */
export async function retryOptimistic<T>(
  options: OptimisticRetryOptions,
  attempt: () => Promise<T | typeof MOVED>,
  exhausted: () => Error,
): Promise<T> {
  const maxAttempts = options.maxAttempts ?? 8;
  const pause = options.sleep ?? sleep;
  for (let n = 1; ; n++) {
    const result = await attempt();
    if (result !== MOVED) return result;
    if (n >= maxAttempts) throw exhausted();
    await pause(fullJitterMs(n, 10, 200));
  }
}
