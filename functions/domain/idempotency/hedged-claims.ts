import { randomUUID } from 'node:crypto';
import type { IdempotencyRecord } from './model';
import type { ClaimKey, IdempotencyClaim } from './port';

/**
 * The hedged claim read (docs/contract.md §4, §36; docs/architecture.md "Hedged claim read").
 *
 * A request whose key the settled-response cache does not know sends its transaction, then at
 * once a strongly consistent read of its claim. A claim item is only ever written in the same
 * transaction as its effect (or as the answer of a refusal), so a claim the read finds has
 * committed, with its answer: the request is a replay (or a reused key, 422) and is answered as
 * soon as the read returns, while its transaction, doomed by the claim's condition, is ignored.
 * A replay on a miss then costs one GetItem instead of a cancelled transaction. A first request
 * is not slowed: its read finds nothing (or its own commit) and the transaction answers.
 *
 * Each attempt stamps its claim with a fresh writer token, so a read that lands after the
 * request's own transaction committed, but before its answer arrived, sees its own token: that
 * is the request's own commit (a first answer), never a replay. An expired claim is no claim
 * (`findRecord` applies the rule the write's condition applies). At most `maxInFlight` reads are
 * outstanding per instance; beyond that a request takes the plain path (its transaction only).
 */
export interface HedgedClaimOptions {
  /** Reads in flight per instance; more requests go unhedged. @default 8 */
  readonly maxInFlight?: number;
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

export class HedgedClaims {
  private inFlight = 0;
  private readonly maxInFlight: number;
  private readonly newWriterToken: () => string;
  /** Answers the read gave before the transaction did (for the bench and tests). */
  answeredByRead = 0;

  constructor(
    private readonly read: ClaimReader,
    options: HedgedClaimOptions = {},
  ) {
    this.maxInFlight = options.maxInFlight ?? DEFAULT_HEDGED_READS_IN_FLIGHT;
    this.newWriterToken = options.newWriterToken ?? randomUUID;
  }

  /** Reads in flight now. */
  get reading(): number {
    return this.inFlight;
  }

  /**
   * Runs `write` with `claim` stamped with a fresh writer token and, while fewer than
   * `maxInFlight` reads are outstanding, the claim's read right after it; answers with
   * whichever settles the request first (see the module comment).
   */
  async write<R extends { readonly kind: string }>(
    claim: IdempotencyClaim,
    write: (stamped: IdempotencyClaim) => Promise<R>,
  ): Promise<R | Settled> {
    const stamped: IdempotencyClaim = { ...claim, writer: this.newWriterToken() };
    const written = write(stamped).then((result) => ({
      by: 'write',
      answer: ownCommit(result, stamped),
    }));
    if (this.inFlight >= this.maxInFlight) return (await written).answer;
    this.inFlight++;
    const fromRead = this.read(stamped).then(
      (record) => {
        this.inFlight--;
        return record === undefined ? NEVER : { by: 'read', answer: answerOf(record, stamped) };
      },
      () => {
        this.inFlight--;
        return NEVER; // a failed read leaves the answer to the transaction
      },
    );
    // Promise.race subscribes to both, so the doomed transaction's later failure is handled.
    const first = await Promise.race([written, fromRead]);
    if (first.by === 'read') this.answeredByRead++;
    return first.answer;
  }
}

/** Never settles: a read that found no claim leaves the race to the transaction. */
const NEVER = new Promise<never>(() => {});

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
