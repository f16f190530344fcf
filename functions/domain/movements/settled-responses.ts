import type { LedgerPort, WriteResult } from '../accounts/port';
import type { HedgedClaims, Settled } from '../idempotency/hedged-claims';
import type { IdempotencyRecord } from '../idempotency/model';
import type { IdempotencyClaim, RecordResult } from '../idempotency/port';
import { epochSeconds } from '../shared/time';
import type { MovementWrite, Once } from './once';
import type { MovementPort } from './port';
import type { PostingRejection } from './rejections';

/**
 * A bounded per-instance cache of settled idempotency records (docs/contract.md §4, §14).
 *
 * A record never changes once its claim committed: the next write to its key can only happen
 * after `expiresAt`, when the key counts as absent. So a cached record is exactly what DynamoDB
 * would return until then, and a replay or a mismatch can be answered without a call. Expired
 * entries are never served; memory is capped by entries and by bytes, least recently used first.
 * A miss costs a Map lookup and leaves the one DynamoDB call untouched.
 */
export interface SettledResponseCacheOptions {
  /** @default 1000 */
  readonly maxEntries?: number;
  /** Approximate bytes of keys, fingerprints and bodies held. @default 4 MiB */
  readonly maxBytes?: number;
}

const ENTRY_OVERHEAD_BYTES = 64;

interface Entry {
  readonly record: IdempotencyRecord;
  readonly bytes: number;
}

export class SettledResponseCache {
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private heldBytes = 0;

  constructor(options: SettledResponseCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 1000;
    this.maxBytes = options.maxBytes ?? 4 * 1024 * 1024;
  }

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.heldBytes;
  }

  /** The settled record of `scopeId` while it is still in force at `nowSeconds`. */
  get(scopeId: string, nowSeconds: number = epochSeconds()): IdempotencyRecord | undefined {
    const entry = this.entries.get(scopeId);
    if (!entry) return undefined;
    this.entries.delete(scopeId);
    // The store treats a record as absent once expiresAt < now; at equality it still holds, but
    // a miss there only costs the call the cache would have saved.
    if (nowSeconds >= entry.record.expiresAt) {
      this.heldBytes -= entry.bytes;
      return undefined;
    }
    this.entries.set(scopeId, entry); // most recently used last
    return entry.record;
  }

  /** Keeps a settled record; the first one kept for a key wins until it expires. */
  remember(scopeId: string, record: IdempotencyRecord, nowSeconds: number = epochSeconds()) {
    if (nowSeconds >= record.expiresAt || this.get(scopeId, nowSeconds)) return;
    const bytes =
      ENTRY_OVERHEAD_BYTES + 2 * (scopeId.length + record.fingerprint.length + record.body.length);
    if (bytes > this.maxBytes) return;
    this.entries.set(scopeId, { record, bytes });
    this.heldBytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.heldBytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.heldBytes -= entry.bytes;
    }
  }
}

const settledBy = (claim: IdempotencyClaim): IdempotencyRecord => ({
  fingerprint: claim.fingerprint,
  statusCode: claim.response.statusCode,
  body: claim.response.body,
  expiresAt: claim.expiresAt,
});

/**
 * Runs one claimed write unless the cache already knows the key's settled record; remembers
 * what the write settled (its own claim when it committed, the stored one when it was claimed).
 */
async function throughCache<R extends WriteResult | RecordResult | MovementWrite<PostingRejection>>(
  cache: SettledResponseCache,
  claim: IdempotencyClaim,
  write: () => Promise<R>,
): Promise<R | { readonly kind: 'claimed'; readonly record: IdempotencyRecord }> {
  const known = cache.get(claim.scopeId, claim.nowSeconds);
  if (known) return { kind: 'claimed', record: known };
  const result = await write();
  if (result.kind === 'committed' || result.kind === 'recorded') {
    cache.remember(claim.scopeId, settledBy(claim), claim.nowSeconds);
  } else if (result.kind === 'claimed') {
    cache.remember(claim.scopeId, result.record, claim.nowSeconds);
  }
  return result;
}

/** The ledger port with replays and mismatches of settled keys answered from `cache`. */
export function withSettledResponses(port: LedgerPort, cache: SettledResponseCache): LedgerPort {
  return {
    ...port,
    createAccount: (claim, account) =>
      throughCache(cache, claim, () => port.createAccount(claim, account)),
    recordResponse: (claim) => throughCache(cache, claim, () => port.recordResponse(claim)),
  };
}

/**
 * The movement port with the replays and mismatches of settled request claims of credits and
 * debits answered from `cache`; every other claim goes to the store as it is.
 */
export function withSettledMovements(
  port: MovementPort,
  cache: SettledResponseCache,
): MovementPort {
  return {
    ...port,
    post: (once, posting, intake) =>
      once.kind === 'request'
        ? throughCache(cache, once.claim, () => port.post(once, posting, intake))
        : port.post(once, posting, intake),
  };
}

/** A movement method with its request claims hedged; event and export claims pass untouched. */
function hedgeRequests<A extends unknown[], R extends { readonly kind: string }>(
  hedge: HedgedClaims,
  method: (once: Once, ...rest: A) => Promise<R>,
): (once: Once, ...rest: A) => Promise<R | Settled> {
  return (once, ...rest) =>
    once.kind === 'request'
      ? hedge.write(once.claim, (claim) => method({ ...once, claim }, ...rest))
      : method(once, ...rest);
}

/**
 * The movement port with every request claim hedged (credits, debits, transfers, ledger
 * transactions, reversals, captures).
 */
export function withHedgedMovements(port: MovementPort, hedge: HedgedClaims): MovementPort {
  return {
    post: hedgeRequests(hedge, port.post.bind(port)),
    transfer: hedgeRequests(hedge, port.transfer.bind(port)),
    ledgerTransaction: hedgeRequests(hedge, port.ledgerTransaction.bind(port)),
    reverse: hedgeRequests(hedge, port.reverse.bind(port)),
    capture: hedgeRequests(hedge, port.capture.bind(port)),
  };
}

/** The ledger port with account creation hedged (the one ledger write a replay often meets). */
export function withHedgedLedger(port: LedgerPort, hedge: HedgedClaims): LedgerPort {
  return {
    ...port,
    createAccount: (claim, account) =>
      hedge.write(claim, (stamped) => port.createAccount(stamped, account)),
  };
}
