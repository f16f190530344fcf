/** What a handler reads from the Lambda context: its time left. */
export interface InvocationContext {
  getRemainingTimeInMillis(): number;
}

/**
 * Every retry of a batch ends this long before the function's time is up, so the records still
 * failing are reported (and redelivered) instead of the whole batch being cut off by the timeout.
 */
export function retryDeadline(now: number, remainingMs: number): number {
  return now + remainingMs - Math.min(2_000, remainingMs / 5);
}
