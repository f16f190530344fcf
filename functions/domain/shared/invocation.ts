import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The invocation a request runs in (docs/contract.md §25): when it started and when the
 * function is stopped (epoch ms). The HTTP function sets it from the Lambda context's remaining
 * time, or — where there is no context, as in the local stack — from the deployed timeout it
 * emulates. Carried through async calls, so no port or command context needs it.
 */
export interface Invocation {
  readonly startedAtMs: number;
  readonly endsAtMs: number;
}

const invocation = new AsyncLocalStorage<Invocation>();

/** Runs `work` as part of `current`. */
export function withInvocation<T>(current: Invocation, work: () => Promise<T>): Promise<T> {
  return invocation.run(current, work);
}

/** The invocation under way, when its handler set one. */
export function currentInvocation(): Invocation | undefined {
  return invocation.getStore();
}
