import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  type ClaimReader,
  type HedgedClaimOptions,
  HedgedClaims,
} from '../../../../functions/domain/idempotency/hedged-claims';
import type { IdempotencyRecord } from '../../../../functions/domain/idempotency/model';
import type { IdempotencyClaim } from '../../../../functions/domain/idempotency/port';
import {
  type HedgeWay,
  ReplayWindow,
} from '../../../../functions/domain/idempotency/replay-window';
import { committedRecord, requestClaim } from '../../../support/fakes/claims';

/** The rule, stated on the plain list of the last `size` outcomes (true: a replay). */
function wayOf(outcomes: readonly boolean[], size: number, readFirstFrom: number): HedgeWay {
  const last = outcomes.slice(-size);
  const replays = last.filter(Boolean).length;
  if (replays === 0) return 'plain';
  return replays >= readFirstFrom * last.length ? 'readFirst' : 'alongside';
}

describe('ReplayWindow', () => {
  it('sends no read until a replay; the read first while half were replays; beside it after', () => {
    const w = new ReplayWindow({ size: 4 });
    expect(w.way()).toBe('plain');
    w.record(false);
    expect(w.way()).toBe('plain');
    w.record(true);
    expect(w.way()).toBe('readFirst'); // 1 of 2
    w.record(false);
    expect(w.way()).toBe('alongside'); // 1 of 3
    w.record(false);
    w.record(false); // the replay is the oldest of 4 now
    expect(w.way()).toBe('alongside');
    w.record(false); // and forgotten
    expect(w.way()).toBe('plain');
  });

  it('agrees with the rule on the last outcomes for any sequence', () => {
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { maxLength: 200 }),
        fc.integer({ min: 1, max: 40 }),
        fc.double({ min: 0.05, max: 1, noNaN: true }),
        (outcomes, size, readFirstFrom) => {
          const w = new ReplayWindow({ size, readFirstFrom });
          outcomes.forEach((replay, i) => {
            expect(w.way()).toBe(wayOf(outcomes.slice(0, i), size, readFirstFrom));
            w.record(replay);
          });
          expect(w.way()).toBe(wayOf(outcomes, size, readFirstFrom));
        },
      ),
    );
  });
});

const claim = requestClaim;
const stored = committedRecord;
type Result = { kind: 'committed' } | { kind: 'claimed'; record: IdempotencyRecord };

/** An adaptive hedge whose window already holds one replay among `firsts` + 1 writes. */
async function afterReplay(reader: ClaimReader, firsts = 0, options: HedgedClaimOptions = {}) {
  const hedge = new HedgedClaims(reader, { window: { size: 8 }, ...options });
  for (let i = 0; i < firsts; i++) await hedge.write(claim, async () => ({ kind: 'committed' }));
  await hedge.write(claim, async (): Promise<Result> => ({ kind: 'claimed', record: stored() }));
  return hedge;
}

describe('HedgedClaims, adaptive', () => {
  it('reads nothing while no replay came: the write answers alone', async () => {
    const reader = vi.fn<ClaimReader>(async () => undefined);
    const hedge = new HedgedClaims(reader);
    expect(await hedge.write(claim, async () => ({ kind: 'committed' }))).toEqual({
      kind: 'committed',
    });
    expect(reader).not.toHaveBeenCalled();
    expect(hedge.nextWay).toBe('plain');
  });

  it('learns a replay from the cancelled write, then answers the next from the read alone', async () => {
    const reader = vi.fn<ClaimReader>(async () => stored());
    const hedge = await afterReplay(reader);
    expect(reader).not.toHaveBeenCalled();
    expect(hedge.nextWay).toBe('readFirst');
    const write = vi.fn(async (): Promise<Result> => ({ kind: 'committed' }));
    expect(await hedge.write(claim, write)).toEqual({ kind: 'claimed', record: stored() });
    expect(write).not.toHaveBeenCalled(); // no transaction at all
    expect(hedge.answeredByRead).toBe(1);
  });

  it('answers a mismatch the read found first as the claimed record (422 there)', async () => {
    const hedge = await afterReplay(async () => stored(undefined, 'another-body'));
    const write = vi.fn(async (): Promise<Result> => ({ kind: 'committed' }));
    expect(await hedge.write(claim, write)).toEqual({
      kind: 'claimed',
      record: stored(undefined, 'another-body'),
    });
    expect(write).not.toHaveBeenCalled();
  });

  it('writes after a read first that found no claim, or failed', async () => {
    const reads = [undefined, new Error('throttled')];
    const hedge = await afterReplay(async () => {
      const next = reads.shift();
      if (next instanceof Error) throw next;
      return next;
    });
    const writes: IdempotencyClaim[] = [];
    const write = async (stamped: IdempotencyClaim): Promise<Result> => {
      writes.push(stamped);
      return { kind: 'committed' };
    };
    expect(await hedge.write(claim, write)).toEqual({ kind: 'committed' });
    expect(hedge.nextWay).toBe('readFirst'); // 1 replay of 2 writes
    expect(await hedge.write(claim, write)).toEqual({ kind: 'committed' });
    expect(writes).toHaveLength(2);
    expect(writes[0]?.writer).toMatch(/^[0-9a-f-]{36}$/);
    expect(hedge.reading).toBe(0);
  });

  it('sends the read beside the write once replays are fewer than half', async () => {
    const reader = vi.fn<ClaimReader>(() => new Promise(() => {}));
    const hedge = await afterReplay(reader, 2);
    expect(hedge.nextWay).toBe('alongside');
    expect(await hedge.write(claim, async () => ({ kind: 'committed' }))).toEqual({
      kind: 'committed',
    });
    expect(reader).toHaveBeenCalledTimes(1);
  });

  it("counts a write cancelled by another attempt's claim after an empty read as a replay", async () => {
    const hedge = await afterReplay(async () => undefined, 1); // 1 replay of 2: read first
    const answer = await hedge.write(
      claim,
      async (): Promise<Result> => ({
        kind: 'claimed',
        record: stored(), // committed between the read and the write
      }),
    );
    expect(answer).toEqual({ kind: 'claimed', record: stored() });
    expect(hedge.nextWay).toBe('readFirst'); // 2 of 3
  });

  it("answers a write cancelled by its own attempt's claim as committed, not a replay", async () => {
    const hedge = await afterReplay(async () => undefined, 1, { newWriterToken: () => 'mine' });
    const answer = await hedge.write(
      claim,
      async (): Promise<Result> => ({
        kind: 'claimed',
        record: { ...stored(), writer: 'mine' }, // an SDK retry of a write that committed
      }),
    );
    expect(answer).toEqual({ kind: 'committed' });
    expect(hedge.nextWay).toBe('alongside'); // 1 of 3
  });

  it('answers its own token found by a read beside the write as committed', async () => {
    const hedge = await afterReplay(async () => ({ ...stored(), writer: 'mine' }), 2, {
      newWriterToken: () => 'mine',
    });
    expect(hedge.nextWay).toBe('alongside');
    const answer = await hedge.write(claim, () => new Promise<Result>(() => {}));
    expect(answer).toEqual({ kind: 'committed' });
  });

  it('sends the write once a read sent first is slower than readFirstWaitMs, then races both', async () => {
    const reads: ((record: IdempotencyRecord | undefined) => void)[] = [];
    const hedge = await afterReplay(() => new Promise((resolve) => reads.push(resolve)), 0, {
      readFirstWaitMs: 5,
    });
    const write = vi.fn(async (): Promise<Result> => ({ kind: 'committed' }));
    expect(await hedge.write(claim, write)).toEqual({ kind: 'committed' });
    expect(write).toHaveBeenCalledTimes(1);
    expect(hedge.reading).toBe(1); // the slow read still out, its answer ignored
    reads[0]?.(undefined);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(hedge.reading).toBe(0);
  });

  it('refuses a window that could hold nothing', () => {
    expect(() => new ReplayWindow({ size: 0 })).toThrow(RangeError);
    expect(() => new ReplayWindow({ readFirstFrom: 0 })).toThrow(RangeError);
  });
});
