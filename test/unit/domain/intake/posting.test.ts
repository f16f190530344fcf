import { describe, expect, it } from 'vitest';
import { MAX_TRANSACTION_ITEMS } from '../../../../functions/contract/events';
import type { AccountRecord, LedgerEntry } from '../../../../functions/domain/accounts/model';
import { MAX_BALANCE } from '../../../../functions/domain/accounts/money';
import type { PendingCredit } from '../../../../functions/domain/accounts/pending-credits';
import type { PostingPort, PostOutcome } from '../../../../functions/domain/intake/port';
import {
  CreditFolder,
  oldestFirst,
  PostingRefusedError,
  postingChunks,
  postingItems,
} from '../../../../functions/domain/intake/posting';
import { withDeadline } from '../../../../functions/domain/shared/retry';

/** docs/contract.md §24: the folder's order, chunks, convergence and refusals. */
const ACCOUNT = 'acct-1';
const at = (second: number) => new Date(Date.UTC(2026, 11, 1, 10, 0, second)).toISOString();

function credit(n: number, shard: number, second = n): PendingCredit {
  const entry: LedgerEntry = {
    id: `e-${String(n).padStart(3, '0')}`,
    accountId: ACCOUNT,
    type: 'credit',
    amount: n,
    currency: 'EUR',
    origin: 'http',
    createdAt: at(second),
    effectiveAt: at(second),
  };
  return { entry, acceptedAt: at(second), shard };
}

/** The table as the folder sees it: pending items per shard, and what each post carried. */
function fakePort(
  pending: PendingCredit[],
  override?: (call: number, chunk: readonly PendingCredit[]) => PostOutcome | undefined,
) {
  const posts: PendingCredit[][] = [];
  const setAside: { credit: PendingCredit; reason: string }[] = [];
  let calls = 0;
  const port: PostingPort = {
    async readPending(_accountId, perShard) {
      const shards = new Map<number, PendingCredit[]>();
      for (const c of oldestFirst(pending))
        shards.set(c.shard, [...(shards.get(c.shard) ?? []), c]);
      return [...shards.values()].flatMap((list) => list.slice(0, perShard));
    },
    async post(_accountId, chunk) {
      calls += 1;
      const forced = override?.(calls, chunk);
      if (forced) return forced;
      if (!chunk.every((c) => pending.includes(c))) return { kind: 'gone' };
      posts.push([...chunk]);
      pending = pending.filter((c) => !chunk.includes(c));
      return { kind: 'posted' };
    },
    async setAside(credit, reason) {
      if (!pending.includes(credit)) return 'gone';
      pending = pending.filter((c) => c !== credit);
      setAside.push({ credit, reason });
      return 'set_aside';
    },
  };
  return { port, posts, setAside, remaining: () => pending, calls: () => calls };
}

const quick = { clock: () => new Date(), sleep: async () => {}, maxAttempts: 5 };

describe('the folder (docs/contract.md §24)', () => {
  it('orders pending credits oldest first across shards: acceptedAt, then entry id', () => {
    const credits = [credit(3, 1, 5), credit(1, 0, 7), credit(2, 2, 5), credit(4, 3, 1)];
    expect(oldestFirst(credits).map((c) => c.entry.id)).toEqual([
      'e-004',
      'e-002',
      'e-003',
      'e-001',
    ]);
  });

  it('cuts chunks of at most 30 credits that fit one transaction, in the given order', () => {
    const few = Array.from({ length: 70 }, (_, i) => credit(i, i % 8));
    expect(postingChunks(few).map((c) => c.length)).toEqual([30, 30, 10]);
    expect(postingChunks(few).flat()).toEqual(few);
    // 32 partitions: 30 credits would touch 30 gates, 121 items; the chunk shrinks to fit 100.
    const spread = Array.from({ length: 64 }, (_, i) => credit(i, i % 32));
    for (const chunk of postingChunks(spread)) {
      const shards = new Set(chunk.map((c) => c.shard)).size;
      expect(postingItems(chunk.length, shards)).toBeLessThanOrEqual(MAX_TRANSACTION_ITEMS);
    }
    expect(postingChunks(spread).flat()).toEqual(spread);
  });

  it('posts every pending credit oldest first, each exactly once, a chunk per transaction', async () => {
    const credits = Array.from({ length: 70 }, (_, i) => credit(i + 1, i % 8, 70 - i));
    const table = fakePort([...credits]);
    const run = await new CreditFolder(table.port, quick).postAll(ACCOUNT);
    expect(run).toEqual({ posted: 70, finished: true, oldestAcceptedAt: at(1) });
    expect(table.posts.map((p) => p.length)).toEqual([30, 30, 10]);
    expect(table.posts.flat()).toEqual(oldestFirst(credits));
    expect(table.remaining()).toEqual([]);
  });

  it('reads again after losing a race, and posts only what is still pending', async () => {
    const credits = Array.from({ length: 40 }, (_, i) => credit(i + 1, i % 4));
    const table = fakePort([...credits]);
    // Another folder posts the 30 oldest before this one's first chunk commits.
    const rival = new CreditFolder(table.port, { ...quick, readLimit: 30 });
    const folder = new CreditFolder(
      {
        readPending: table.port.readPending,
        setAside: table.port.setAside,
        async post(accountId, chunk, when) {
          if (table.calls() === 0) await rival.postAll(ACCOUNT).catch(() => undefined);
          return table.port.post(accountId, chunk, when);
        },
      },
      quick,
    );
    const run = await folder.postAll(ACCOUNT);
    const ids = table.posts.flat().map((c) => c.entry.id);
    expect(new Set(ids).size).toBe(40);
    expect(ids).toHaveLength(40);
    expect(run.posted).toBe(0);
    expect(table.remaining()).toEqual([]);
  });

  it('sets aside a credit refused for good (the balance cap) instead of failing (§36)', async () => {
    const account = { balance: MAX_BALANCE - 1 } as AccountRecord;
    const table = fakePort([credit(5, 0)], () => ({ kind: 'refused', account }));
    const run = await new CreditFolder(table.port, quick).postAll(ACCOUNT);
    expect(run).toMatchObject({ posted: 0, setAside: 1, finished: true });
    expect(table.setAside.map((s) => s.reason)).toEqual(['balance_limit_exceeded']);
    expect(table.calls()).toBe(1);
    expect(table.remaining()).toEqual([]);
  });

  it('finds the refused credit one by one and posts the others around it (§36)', async () => {
    const closed = { balance: 0, closedThrough: at(2) } as AccountRecord;
    const credits = [credit(1, 0, 5), credit(2, 1, 1), credit(3, 0, 7)];
    // Credit 2 is effective in the closed period: every chunk holding it is refused.
    const table = fakePort([...credits], (_call, chunk) =>
      chunk.some((c) => c.entry.id === 'e-002') ? { kind: 'refused', account: closed } : undefined,
    );
    const run = await new CreditFolder(table.port, quick).postAll(ACCOUNT);
    expect(run).toMatchObject({ posted: 2, setAside: 1, finished: true });
    expect(table.setAside).toEqual([{ credit: credits[1], reason: 'period_closed' }]);
    expect(table.posts.flat().map((c) => c.entry.id)).toEqual(['e-001', 'e-003']);
  });

  it('still fails on a refusal that is not set aside (a missing account)', async () => {
    const table = fakePort([credit(5, 0)], () => ({ kind: 'refused', account: undefined }));
    const error = await new CreditFolder(table.port, quick).postAll(ACCOUNT).catch((e) => e);
    expect(error).toBeInstanceOf(PostingRefusedError);
    expect(error).toMatchObject({ code: 'not_found', accountId: ACCOUNT });
    expect(table.setAside).toEqual([]);
  });

  it('gives up on endless contention within its backoff, as unavailable', async () => {
    const table = fakePort([credit(5, 0)], () => ({
      kind: 'contended',
      reason: 'TransactionConflict',
    }));
    await expect(new CreditFolder(table.port, quick).postAll(ACCOUNT)).rejects.toMatchObject({
      code: 'unavailable',
    });
    expect(table.calls()).toBe(5);
  });

  it('contended until the deadline: unfinished (queued again), not a failed receive', async () => {
    let now = 1_000;
    const table = fakePort([credit(5, 0)], () => {
      now += 100;
      return { kind: 'contended', reason: 'TransactionConflict' };
    });
    const folder = new CreditFolder(table.port, { ...quick, maxAttempts: 100, now: () => now });
    const run = await withDeadline(1_500, () => folder.postAll(ACCOUNT));
    expect(run).toMatchObject({ posted: 0, finished: false });
    expect(table.remaining()).toHaveLength(1);
  });

  it("stops at the invocation's deadline with credits left, as unfinished", async () => {
    let now = 1_000;
    const table = fakePort(Array.from({ length: 40 }, (_, i) => credit(i + 1, 0)));
    const folder = new CreditFolder(
      {
        ...table.port,
        post: async (...args) => {
          now += 600;
          return table.port.post(...args);
        },
      },
      { ...quick, now: () => now },
    );
    const run = await withDeadline(1_500, () => folder.postAll(ACCOUNT));
    expect(run).toMatchObject({ posted: 30, finished: false });
    expect(table.remaining()).toHaveLength(10);
  });
});
