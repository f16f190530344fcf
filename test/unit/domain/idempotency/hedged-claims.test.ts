import { describe, expect, it, vi } from 'vitest';
import {
  type ClaimReader,
  type HedgedClaimOptions,
  HedgedClaims,
} from '../../../../functions/domain/idempotency/hedged-claims';
import type { IdempotencyRecord } from '../../../../functions/domain/idempotency/model';
import type { IdempotencyClaim } from '../../../../functions/domain/idempotency/port';
import { inboxOnce, requestOnce } from '../../../../functions/domain/movements/once';
import { withHedgedMovements } from '../../../../functions/domain/movements/settled-responses';
import { committedRecord, requestClaim } from '../../../support/fakes/claims';
import { fakeMovementPort } from '../../../support/fakes/ledger/movements';

/** A promise settled from outside: which of the write and the read ends first is the test's. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

const claim = requestClaim;
const stored = committedRecord;

type Result =
  | { kind: 'committed' }
  | { kind: 'claimed'; record: IdempotencyRecord }
  | { kind: 'insufficient_funds' };

function race(options: HedgedClaimOptions = { mode: 'always' }) {
  const write = deferred<Result>();
  const read = deferred<IdempotencyRecord | undefined>();
  const reader = vi.fn<ClaimReader>(() => read.promise);
  let n = 0;
  const hedge = new HedgedClaims(reader, { newWriterToken: () => `w${++n}`, ...options });
  const writes: IdempotencyClaim[] = [];
  const answer = hedge.write(claim, (stamped) => {
    writes.push(stamped);
    return write.promise;
  });
  return { hedge, write, read, reader, writes, answer };
}

describe('HedgedClaims', () => {
  it('stamps the claim with a fresh writer token and reads that same key alongside', async () => {
    const r = race();
    expect(r.writes).toEqual([{ ...claim, writer: 'w1' }]);
    expect(r.reader).toHaveBeenCalledWith({ ...claim, writer: 'w1' });
    r.read.resolve(undefined);
    r.write.resolve({ kind: 'committed' });
    expect(await r.answer).toEqual({ kind: 'committed' });
  });

  it("answers another writer's claim as soon as the read returns; the doomed write is ignored", async () => {
    const r = race();
    r.read.resolve(stored('other'));
    expect(await r.answer).toEqual({ kind: 'claimed', record: stored('other') });
    expect(r.hedge.answeredByRead).toBe(1);
    // The cancelled transaction ends later, with an error even: nothing is unhandled.
    r.write.reject(new Error('cancelled'));
    await Promise.resolve();
    expect(r.hedge.reading).toBe(0);
  });

  it('hands a fingerprint mismatch the read found to settle as a claimed record (422 there)', async () => {
    const r = race();
    r.read.resolve(stored('other', 'another-body'));
    expect(await r.answer).toEqual({ kind: 'claimed', record: stored('other', 'another-body') });
  });

  it('never answers from a read that found no claim: the write that did not commit answers', async () => {
    const r = race();
    r.read.resolve(undefined);
    await new Promise((resolve) => setTimeout(resolve, 5));
    r.write.resolve({ kind: 'insufficient_funds' });
    expect(await r.answer).toEqual({ kind: 'insufficient_funds' });
    expect(r.hedge.answeredByRead).toBe(0);
  });

  it("a claim carrying the attempt's own token is its own commit, never a replay", async () => {
    const r = race();
    r.read.resolve(stored('w1'));
    expect(await r.answer).toEqual({ kind: 'committed' });
  });

  it("a write cancelled by its own attempt's claim (a lost answer) is its own commit", async () => {
    const r = race();
    r.write.resolve({ kind: 'claimed', record: stored('w1') });
    expect(await r.answer).toEqual({ kind: 'committed' });
  });

  it('a write that ends first answers at once, whatever the read does', async () => {
    const r = race();
    r.write.resolve({ kind: 'claimed', record: stored('other') });
    expect(await r.answer).toEqual({ kind: 'claimed', record: stored('other') });
    expect(r.hedge.reading).toBe(1);
    r.read.resolve(stored('other'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(r.hedge.reading).toBe(0);
  });

  it('a failed read leaves the answer to the write', async () => {
    const r = race();
    r.read.reject(new Error('throttled'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    r.write.resolve({ kind: 'committed' });
    expect(await r.answer).toEqual({ kind: 'committed' });
    expect(r.hedge.reading).toBe(0);
  });

  it('keeps at most maxInFlight reads outstanding; the next request is not hedged', async () => {
    const read = deferred<IdempotencyRecord | undefined>();
    const reader = vi.fn<ClaimReader>(() => read.promise);
    const hedge = new HedgedClaims(reader, { mode: 'always', maxInFlight: 2 });
    const writes = [deferred<Result>(), deferred<Result>(), deferred<Result>()];
    const answers = writes.map((w) => hedge.write(claim, () => w.promise));
    expect(reader).toHaveBeenCalledTimes(2);
    expect(hedge.reading).toBe(2);
    for (const w of writes) w.resolve({ kind: 'committed' });
    await Promise.all(answers);
    read.resolve(undefined);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(hedge.reading).toBe(0);
    await hedge.write(claim, async () => ({ kind: 'committed' }));
    expect(reader).toHaveBeenCalledTimes(3);
  });
});

describe('withHedgedMovements', () => {
  const posting = { entry: {} as never, guard: { ownerId: 'p', currency: 'EUR' } };

  it('hedges request claims and passes event claims through untouched', async () => {
    const reader = vi.fn<ClaimReader>(async () => undefined);
    const port = fakeMovementPort();
    const hedged = withHedgedMovements(
      port,
      new HedgedClaims(reader, { mode: 'always', newWriterToken: () => 't' }),
    );
    await hedged.post(requestOnce(claim), posting);
    expect(port.post).toHaveBeenCalledWith(requestOnce({ ...claim, writer: 't' }), posting);
    const inbox = inboxOnce({ source: 's', eventId: 'e', contentHash: 'h' } as never, undefined);
    await hedged.post(inbox, posting);
    expect(port.post).toHaveBeenLastCalledWith(inbox, posting);
    expect(reader).toHaveBeenCalledTimes(1);
  });
});
