import { randomUUID } from 'node:crypto';
import type { IdempotencyRecord } from './model';
import type { ClaimKey, IdempotencyClaim } from './port';
import {
  type HedgeMode,
  type HedgeWay,
  ReplayWindow,
  type ReplayWindowOptions,
} from './replay-window';

/**
 * The hedged claim read (docs/contract.md §4, §36; docs/architecture.md "Hedged claim read").
 *
 * A claim item is only ever written in the same transaction as its effect (or as the answer of
 * a refusal), so a claim a strongly consistent read finds has committed, with its answer: the
 * request is a replay (or a reused key, 422) and is answered from the read, while its
 * transaction, doomed by the claim's condition, is ignored or never sent.
 *
 * How the read is sent (replay-window.ts): in `always` mode, beside every transaction; in
 * `adaptive` mode (the default), not at all while the instance met no replay among its last
 * guarded writes (a first request then costs its transaction only, no read units), beside the
 * transaction when it met some (a replay answered at a read's latency, a first request still at
 * its transaction's), and before it when replays were at least half of them (a retry storm: a
 * replay then costs one GetItem and no cancelled transaction).
 *
 * Each attempt stamps its claim with a fresh writer token, so a read that lands after the
 * request's own transaction committed, but before its answer arrived, sees its own token: that
 * is the request's own commit (a first answer), never a replay. An expired claim is no claim
 * (`findRecord` applies the rule the write's condition applies). At most `maxInFlight` reads are
 * outstanding per instance; beyond that a request takes the plain path (its transaction only).
 */
export interface HedgedClaimOptions {
  /** `adaptive`: the read only where recent replays make it pay (replay-window.ts). @default 'adaptive' */
  readonly mode?: HedgeMode;
  /** The recent outcomes `adaptive` decides from. @default a window of 32 */
  readonly window?: ReplayWindowOptions;
  /** Reads in flight per instance; more requests go unhedged. @default 8 */
  readonly maxInFlight?: number;
  /** How long a read sent first holds its write back. @default 50 */
  readonly readFirstWaitMs?: number;
  /** The per-attempt writer token. @default randomUUID */
  readonly newWriterToken?: () => string;
}

/** The strongly consistent read of a claim (a store's `findRecord`). */
export type ClaimReader = (key: ClaimKey) => Promise<IdempotencyRecord | undefined>;

/** What the hedge may answer in place of the transaction: the claim's own two settled kinds. */
export type Settled =
  | { readonly kind: 'committed' }
  | { readonly kind: 'claimed'; readonly record: IdempotencyRecord };

export const DEFAULT_HEDGED_READS_IN_FLIGHT = 8;
export const DEFAULT_READ_FIRST_WAIT_MS = 50;

type Write<R> = (stamped: IdempotencyClaim) => Promise<R>;

export class HedgedClaims {
  private inFlight = 0;
  private readonly maxInFlight: number;
  private readonly readFirstWaitMs: number;
  private readonly newWriterToken: () => string;
  private readonly mode: HedgeMode;
  private readonly recent: ReplayWindow;
  /** Answers the read gave before the transaction did (for the bench and tests). */
  answeredByRead = 0;

  constructor(
    private readonly read: ClaimReader,
    options: HedgedClaimOptions = {},
  ) {
    this.maxInFlight = options.maxInFlight ?? DEFAULT_HEDGED_READS_IN_FLIGHT;
    this.readFirstWaitMs = options.readFirstWaitMs ?? DEFAULT_READ_FIRST_WAIT_MS;
    this.newWriterToken = options.newWriterToken ?? randomUUID;
    this.mode = options.mode ?? 'adaptive';
    this.recent = new ReplayWindow(options.window);
  }

  /** Reads in flight now. */
  get reading(): number {
    return this.inFlight;
  }

  /** How the next request's claim would be read (`plain`: not at all). */
  get nextWay(): HedgeWay {
    if (this.inFlight >= this.maxInFlight) return 'plain';
    return this.mode === 'always' ? 'alongside' : this.recent.way();
  }

  /**
   * Runs `write` with `claim` stamped with a fresh writer token, the claim's read sent the way
   * {@link nextWay} says; answers with whichever settles the request first (see the module
   * comment), and remembers whether it was a replay.
   */
  async write<R extends { readonly kind: string }>(
    claim: IdempotencyClaim,
    write: Write<R>,
  ): Promise<R | Settled> {
    const stamped: IdempotencyClaim = { ...claim, writer: this.newWriterToken() };
    const way = this.nextWay;
    const answer =
      way === 'plain'
        ? ownCommit(await write(stamped), stamped)
        : way === 'alongside'
          ? await this.alongside(stamped, write)
          : await this.readFirst(stamped, write);
    this.recent.record(answer.kind === 'claimed' && 'record' in answer);
    return answer;
  }

  /**
   * The write and the claim's read (`sent`, when already sent) racing: the first that settles
   * the request answers. A read that found no claim leaves the answer to the write; the write's
   * later end (a doomed transaction's cancellation, even an error) is handled and ignored.
   */
  private alongside<R extends { readonly kind: string }>(
    stamped: IdempotencyClaim,
    write: Write<R>,
    sent?: Promise<IdempotencyRecord | undefined>,
  ): Promise<R | Settled> {
    const written = write(stamped);
    const read = sent ?? this.counted(stamped); // the write leaves first, then the read
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (answer: R | Settled, byRead: boolean) => {
        if (settled) return;
        settled = true;
        if (byRead) this.answeredByRead++;
        resolve(answer);
      };
      written.then(
        (result) => settle(ownCommit(result, stamped), false),
        (error: unknown) => {
          if (settled) return;
          settled = true;
          reject(error);
        },
      );
      void read.then((record) => {
        if (record !== undefined) settle(answerOf(record, stamped), true);
      });
    });
  }

  /**
   * The read, then the write only when the read found no claim (or failed). A read still out
   * after `readFirstWaitMs` (a throttled table: retry storms come with them) no longer holds
   * the write back: the write goes and the two race as {@link alongside}.
   */
  private async readFirst<R extends { readonly kind: string }>(
    stamped: IdempotencyClaim,
    write: Write<R>,
  ): Promise<R | Settled> {
    const read = this.counted(stamped);
    const record = await within(read, this.readFirstWaitMs);
    if (record === TIMED_OUT) return this.alongside(stamped, write, read);
    if (record === undefined) return ownCommit(await write(stamped), stamped);
    this.answeredByRead++;
    return answerOf(record, stamped);
  }

  /** The claim's read, counted while in flight; a failed read is no answer (undefined). */
  private async counted(stamped: IdempotencyClaim): Promise<IdempotencyRecord | undefined> {
    this.inFlight++;
    try {
      return await this.read(stamped);
    } catch {
      return undefined; // a failed read leaves the answer to the transaction
    } finally {
      this.inFlight--;
    }
  }
}

const TIMED_OUT = Symbol('timed out');

/** `promise`'s value, or TIMED_OUT once `ms` passed first (the timer never outlives it). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const isClaimed = <R extends { readonly kind: string }>(
  result: R,
): result is R & { readonly kind: 'claimed'; readonly record: IdempotencyRecord } =>
  result.kind === 'claimed' && 'record' in result;

/** The claim a read found: the request's own commit (its token), else a committed claim. */
function answerOf(record: IdempotencyRecord, mine: IdempotencyClaim): Settled {
  return record.writer !== undefined && record.writer === mine.writer
    ? { kind: 'committed' }
    : { kind: 'claimed', record };
}

/**
 * A transaction cancelled by a claim that carries the attempt's own token committed earlier in
 * the same attempt (an SDK retry of a write whose answer was lost): it is the first answer.
 */
function ownCommit<R extends { readonly kind: string }>(
  result: R,
  mine: IdempotencyClaim,
): R | Settled {
  return isClaimed(result) ? answerOf(result.record, mine) : result;
}
