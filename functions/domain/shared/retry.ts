/** Waiting and retrying, shared by the domain, the DynamoDB layer, the local stack and the CLI. */
import { AsyncLocalStorage } from 'node:async_hooks';

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

/**
 * The pause before attempt `attempt + 1` of a write cancelled because another writer held its
 * item: random within [½, 1½) of min(max, base · 2^(attempt−1)). The holder keeps the item about
 * one commit latency (the base), so a retry sooner than half of it mostly meets the holder, or the
 * writers queued behind it, again (full jitter's many short pauses: one cancelled transaction per
 * early retry). Centring the jitter on the doubling keeps retries spread and converges in fewer
 * attempts (issue 50: 10 in flight on one account on the contention layer).
 */
export function contendedPauseMs(
  attempt: number,
  baseMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  return Math.floor(Math.min(maxMs, baseMs * 2 ** (attempt - 1)) * (0.5 + random()));
}

/**
 * How long the writes of one item usually take to commit, as an exponentially weighted mean of
 * the attempts that committed. It is how long a contender holds the item, so it is the natural
 * unit of a backoff: retrying sooner only meets the holder again.
 */
export interface LatencySource {
  observe(ms: number): void;
  /** The estimate in ms; undefined before anything was measured. */
  readonly value: number | undefined;
}

/** A latency that is never measured: the backoff keeps its fixed base (no tuning). */
export const UNMEASURED: LatencySource = { observe: () => {}, value: undefined };

export class LatencyEstimate implements LatencySource {
  private mean: number | undefined;

  constructor(private readonly weight = 0.2) {}

  observe(ms: number): void {
    if (!(ms >= 0)) return;
    this.mean = this.mean === undefined ? ms : this.mean + this.weight * (ms - this.mean);
  }

  /** The estimate in ms; undefined before anything committed. */
  get value(): number | undefined {
    return this.mean;
  }
}

/**
 * Capped exponential backoff with full jitter, tuned to the write's own latency and bounded by
 * a time budget (docs/contract.md §20). Every retry loop of the service uses it: contention and
 * throttling of one transaction, and the read → decide → write loops of optimistic updates.
 */
export interface Backoff {
  /** Attempts in all, the first included: a safety cap; the time budget usually ends first. */
  readonly maxAttempts: number;
  /** The smallest base of the backoff; above it the base is the measured write latency. */
  readonly baseDelayMs: number;
  /** The longest single pause. */
  readonly maxDelayMs: number;
  /** How long one write may keep retrying from its first attempt, when no deadline is set. */
  readonly budgetMs: number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly random: () => number;
  /** Epoch milliseconds; deadlines are compared with it. */
  readonly now: () => number;
  /** Shared by the writes of one store, so each retry starts from what the last ones measured. */
  readonly latency?: LatencySource;
}

export const DEFAULT_BACKOFF: Backoff = {
  maxAttempts: 100,
  baseDelayMs: 5,
  maxDelayMs: 500,
  budgetMs: 5_000,
  sleep,
  random: Math.random,
  now: Date.now,
};

/**
 * The deadline of the invocation under way (epoch ms), when its handler set one: retries stop
 * before it, so a function reports a record as failed (or answers 503) while it still can,
 * instead of being cut off by its timeout. Carried through async calls, so no port needs it.
 */
const invocationDeadline = new AsyncLocalStorage<number>();

/** Runs `work` with every retry inside it bounded by `deadline` (epoch ms). */
export function withDeadline<T>(deadline: number, work: () => Promise<T>): Promise<T> {
  return invocationDeadline.run(deadline, work);
}

/** The deadline `withDeadline` set for the work under way, if any. */
export function currentDeadline(): number | undefined {
  return invocationDeadline.getStore();
}

/**
 * The pause before attempt `attempt + 1` of a write whose first attempt began at `startedAt`
 * (`contended`: its item was held by another writer, see `contendedPauseMs`; else full jitter),
 * or undefined when none may follow: the attempts are used up, or the attempt after the pause
 * would start past the budget or the invocation's deadline.
 */
export function nextPause(
  backoff: Backoff,
  attempt: number,
  startedAt: number,
  jitter: 'full' | 'contended' = 'full',
): number | undefined {
  if (attempt >= backoff.maxAttempts) return undefined;
  const measured = backoff.latency?.value ?? 0;
  const base = Math.min(backoff.maxDelayMs, Math.max(backoff.baseDelayMs, measured));
  const pauseOf = jitter === 'contended' ? contendedPauseMs : fullJitterMs;
  const pause = pauseOf(attempt, base, backoff.maxDelayMs, backoff.random);
  const deadline = Math.min(startedAt + backoff.budgetMs, currentDeadline() ?? Infinity);
  // The next attempt itself takes about one latency: starting it later would end past the deadline.
  return backoff.now() + pause + measured <= deadline ? pause : undefined;
}

/** What an optimistic attempt returns when a concurrent writer moved the item it read. */
export const MOVED = Symbol('moved');

/** Tuning of an optimistic loop; tests pass a no-op `sleep` and a small `maxAttempts`. */
export type OptimisticRetryOptions = Partial<Backoff>;

/**
 * Read → decide → conditional write, again while the write reports MOVED: a burst on one item
 * contends on its version, so attempts back off like every other retry (`nextPause`).
 */
export async function retryOptimistic<T>(
  options: OptimisticRetryOptions,
  attempt: () => Promise<T | typeof MOVED>,
  exhausted: () => Error,
): Promise<T> {
  const backoff: Backoff = { ...DEFAULT_BACKOFF, ...definedOnly(options) };
  const startedAt = backoff.now();
  for (let n = 1; ; n++) {
    const begun = backoff.now();
    const result = await attempt();
    if (result !== MOVED) {
      backoff.latency?.observe(backoff.now() - begun);
      return result;
    }
    const pause = nextPause(backoff, n, startedAt);
    if (pause === undefined) throw exhausted();
    await backoff.sleep(pause);
  }
}

/** `{ ...defaults, ...options }` without letting an explicit `undefined` erase a default. */
export function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(options).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}
