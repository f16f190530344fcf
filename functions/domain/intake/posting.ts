import { MAX_TRANSACTION_ITEMS } from '../../contract/events';
import type { AccountRecord } from '../accounts/model';
import { MAX_CREDITS_PER_POSTING, type PendingCredit } from '../accounts/pending-credits';
import { refusalCode, setsAsideCredit } from '../movements/precedence';
import { DomainError, type ErrorCode, UnavailableError } from '../shared/errors';
import {
  type Backoff,
  currentDeadline,
  DEFAULT_BACKOFF,
  definedOnly,
  nextPause,
} from '../shared/retry';
import type { PostingPort } from './port';

/**
 * The folder (docs/contract.md §24): posts the pending credits of one account, oldest first
 * (acceptedAt, then entry id) across its intake partitions, in chunks of at most
 * MAX_CREDITS_PER_POSTING, each chunk ONE transaction. Two folders on one account converge: the
 * loser of a race finds its items gone (or its transaction cancelled), reads again and posts
 * only what is still pending, so nothing is posted twice and nothing is left behind.
 */

/** Pending credits one read takes of each partition (and of the account): ten chunks. */
export const PENDING_READ_LIMIT = 10 * MAX_CREDITS_PER_POSTING;

/** Oldest first: acceptedAt (ISO 8601 UTC, so text order is time order), then entry id. */
export function oldestFirst(credits: readonly PendingCredit[]): PendingCredit[] {
  const key = (c: PendingCredit) => `${c.acceptedAt}#${c.entry.id}`;
  return [...credits].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/**
 * Items a posting transaction writes: the account, per credit its entry, pointer and pending
 * item, per touched partition its posted count.
 */
export const postingItems = (credits: number, shards: number): number => 1 + 3 * credits + shards;

/**
 * Consecutive chunks in the given order: each at most MAX_CREDITS_PER_POSTING credits and no
 * more items than one TransactWriteItems takes (many partitions touched make a chunk smaller).
 */
export function postingChunks(credits: readonly PendingCredit[]): PendingCredit[][] {
  const chunks: PendingCredit[][] = [];
  let chunk: PendingCredit[] = [];
  let shards = new Set<number>();
  for (const credit of credits) {
    const touched = shards.has(credit.shard) ? shards.size : shards.size + 1;
    const full =
      chunk.length >= MAX_CREDITS_PER_POSTING ||
      postingItems(chunk.length + 1, touched) > MAX_TRANSACTION_ITEMS;
    if (full) {
      chunks.push(chunk);
      chunk = [];
      shards = new Set();
    }
    chunk.push(credit);
    shards.add(credit.shard);
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/** The account update of a posting was refused for a reason that stays: the message fails. */
export class PostingRefusedError extends DomainError {
  constructor(
    code: ErrorCode,
    detail: string,
    readonly accountId: string,
  ) {
    super(code, detail);
  }
}

/**
 * Why an account refused a chunk, from the account as it stood (ALL_OLD), by the one precedence
 * table (functions/domain/movements/precedence.ts): the posting guards no owner, currency or
 * open account (intake checked those), so missing, a closed period, then the balance cap.
 */
export function refusalOf(
  accountId: string,
  account: AccountRecord | undefined,
  chunk: readonly PendingCredit[],
): PostingRefusedError {
  const refused = (code: ErrorCode, detail: string) =>
    new PostingRefusedError(code, `account ${accountId}: ${detail}`, accountId);
  const sum = chunk.reduce((total, c) => total + c.entry.amount, 0);
  const [earliest] = chunk.map((c) => c.entry.effectiveAt).sort();
  const guard = { increaseBy: sum, ...(earliest === undefined ? {} : { effectiveAt: earliest }) };
  switch (refusalCode(account, guard)) {
    case 'not_found':
      return refused('not_found', 'pending credits of an account that does not exist');
    case 'period_closed':
      return refused(
        'period_closed',
        `a pending credit effective ${earliest} lies in the period closed through ${account?.closedThrough}`,
      );
    case 'balance_limit_exceeded':
      return refused(
        'balance_limit_exceeded',
        `posting ${sum} would push the balance ${account?.balance} past 2^53 − 1 minor units`,
      );
    default:
      return refused('internal', 'the account refused the posting for no known reason');
  }
}

/** What one run of the folder on one account did. */
export interface FolderRun {
  readonly posted: number;
  /** Credits set aside (§36), present only when some were. */
  readonly setAside?: number;
  /** acceptedAt of the oldest pending credit the first read found: the posting lag. */
  readonly oldestAcceptedAt?: string;
  /** False: the invocation's deadline came first, pending credits may be left. */
  readonly finished: boolean;
}

export interface FolderOptions extends Partial<Backoff> {
  readonly clock: () => Date;
  /** Credits one read takes. @default PENDING_READ_LIMIT */
  readonly readLimit?: number;
}

export class CreditFolder {
  private readonly backoff: Backoff;

  constructor(
    private readonly port: PostingPort,
    private readonly options: FolderOptions,
  ) {
    const { clock: _clock, readLimit: _limit, ...backoff } = options;
    this.backoff = { ...DEFAULT_BACKOFF, ...definedOnly(backoff) };
  }

  /**
   * Posts everything pending for the account until a read finds nothing (or the invocation's
   * deadline comes). A race lost (`gone`, `contended`) reads again after a capped, jittered
   * pause (the shared backoff, reset by every chunk posted). A refusal that stays (§36:
   * `setsAsideCredit` in the precedence table) posts the chunk again one credit at a time and
   * sets aside the credit refused alone, so later credits post; any other refusal throws.
   */
  async postAll(accountId: string): Promise<FolderRun> {
    const limit = this.options.readLimit ?? PENDING_READ_LIMIT;
    const { now } = this.backoff;
    let posted = 0;
    let setAside = 0;
    let oneByOne = false;
    let oldestAcceptedAt: string | undefined;
    let attempt = 0;
    let startedAt = now();
    const run = (finished: boolean): FolderRun => ({
      posted,
      finished,
      ...(setAside > 0 ? { setAside } : {}),
      ...(oldestAcceptedAt === undefined ? {} : { oldestAcceptedAt }),
    });
    for (;;) {
      if (this.pastDeadline()) return run(false);
      // The oldest `limit` of every partition hold the oldest `limit` of the account.
      const read = await this.port.readPending(accountId, limit);
      const credits = oldestFirst(read).slice(0, limit);
      oldestAcceptedAt ??= credits[0]?.acceptedAt;
      if (credits.length === 0) return run(true);
      let lost = false;
      const chunks = oneByOne ? credits.map((c) => [c]) : postingChunks(credits);
      for (const chunk of chunks) {
        if (this.pastDeadline()) return run(false);
        const outcome = await this.port.post(accountId, chunk, this.options.clock().toISOString());
        if (outcome.kind === 'refused') {
          const refusal = refusalOf(accountId, outcome.account, chunk);
          const [only] = chunk;
          if (!setsAsideCredit(refusal.code)) throw refusal;
          if (chunk.length > 1 || only === undefined) {
            oneByOne = true; // read again, then find the refused credit(s) one at a time
            break;
          }
          const at = this.options.clock().toISOString();
          if ((await this.port.setAside(only, refusal.code, at)) === 'set_aside') setAside += 1;
          oneByOne = false;
          break;
        }
        if (outcome.kind !== 'posted') {
          lost = true;
          break;
        }
        posted += chunk.length;
        attempt = 0;
        startedAt = now();
      }
      if (!lost) continue; // also after a refusal: read again at once
      attempt += 1;
      const pause = nextPause(this.backoff, attempt, startedAt);
      if (pause === undefined) {
        // The invocation's time ran out, not the attempts: the account is queued again instead
        // of its message counting a failed receive towards the DLQ.
        if (attempt < this.backoff.maxAttempts && currentDeadline() !== undefined) {
          return run(false);
        }
        throw new UnavailableError(
          undefined,
          `account ${accountId}: pending credits stayed contended; retry later`,
        );
      }
      await this.backoff.sleep(pause);
    }
  }

  private pastDeadline(): boolean {
    const deadline = currentDeadline();
    return deadline !== undefined && this.backoff.now() >= deadline;
  }
}
