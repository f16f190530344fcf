import { randomUUID } from 'node:crypto';
import { TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import type { HttpResult } from '../../../functions/api/types';
import { bodyOf } from '../../support/ledger-api';
import { useLedgerFixture } from '../fixture';

/**
 * Batches over the write path (docs/contract.md §25), black box through the HTTP
 * function on DynamoDB Local: atomic batches into deferred accounts answer what applying their
 * operations one by one answers, are sized after routing, coalesced chunks are routed like
 * single credits, operation keys read as the header would, the fingerprint normalises ids.
 */

const fixture = useLedgerFixture();
const { api } = fixture;

type Op = 'credit' | 'debit';
const posting = (
  op: Op,
  accountId: string,
  amount: number,
  extra = {},
  key: string = randomUUID(),
) => ({
  key,
  op,
  accountId,
  body: { type: op, amount, currency: 'EUR', ...extra },
});
const batch = (mode: string, operations: unknown[], key = randomUUID()) =>
  api.post('/v1/batches', { mode, operations }, key);
const deferred = (funds = 0) => api.accountWith({ creditIntake: 'deferred' }, funds);
const rejection = (res: HttpResult) => {
  const body = bodyOf(res) as { failedOperation?: number; cause?: { code: string } };
  return { code: bodyOf(res).code, failedOperation: body.failedOperation, cause: body.cause?.code };
};

/** How many TransactWriteItems calls DynamoDB cancelled while `work` ran. */
async function cancelledDuring(work: () => Promise<unknown>): Promise<number> {
  const send = vi.spyOn(fixture.client, 'send');
  try {
    await work();
    return send.mock.calls.filter(
      ([command], i) =>
        command instanceof TransactWriteItemsCommand &&
        send.mock.settledResults[i]?.type === 'rejected',
    ).length;
  } finally {
    send.mockRestore();
  }
}

describe('an atomic batch into a deferred account answers as one by one would (§31)', () => {
  it('[credit deferred A 50, debit A 50]: pending money is not spendable, operation 1', async () => {
    const a = await deferred();
    const res = await batch('atomic', [posting('credit', a, 50), posting('debit', a, 50)]);
    expect(res.statusCode).toBe(409);
    expect(rejection(res)).toEqual({
      code: 'batch_rejected',
      failedOperation: 1,
      cause: 'insufficient_funds',
    });
    expect(await api.money(a)).toEqual({ balance: 0, available: 0 });
  });

  it('[credit deferred A 50, debit A 50, debit empty B 10] names operation 1', async () => {
    const [a, b] = [await deferred(), await api.account()];
    const ops = [posting('credit', a, 50), posting('debit', a, 50), posting('debit', b, 10)];
    expect(rejection(await batch('atomic', ops))).toMatchObject({ failedOperation: 1 });
  });

  it('[debit A 10, credit A 5 before a closed period]: period_closed at 1', async () => {
    const a = await deferred();
    // Funded while still direct, then deferred: its gates hold the closed period.
    await api.post(`/v1/accounts/${a}/settings`, { creditIntake: 'direct' });
    await api.post(`/v1/accounts/${a}/transactions`, {
      type: 'credit',
      amount: 10,
      currency: 'EUR',
    });
    await api.post(`/v1/accounts/${a}/settings`, { creditIntake: 'deferred' });
    const through = new Date(Date.now() - 86_400_000).toISOString();
    const closed = await api.post(`/v1/accounts/${a}/period-closes`, { through });
    expect(closed.statusCode).toBe(200);
    const before = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const ops = [posting('debit', a, 10), posting('credit', a, 5, { effectiveAt: before })];
    expect(rejection(await batch('atomic', ops))).toEqual({
      code: 'batch_rejected',
      failedOperation: 1,
      cause: 'period_closed',
    });
    expect(await api.money(a)).toEqual({ balance: 10, available: 10 });
  });

  it('40 credits into one deferred account fit one transaction: sized after routing', async () => {
    const a = await deferred();
    const res = await batch(
      'atomic',
      Array.from({ length: 40 }, () => posting('credit', a, 1)),
    );
    expect(res.statusCode).toBe(200);
    const pending = await api.get(`/v1/accounts/${a}/pending-credits`, 'alice', { limit: '100' });
    const folded = await api.money(a);
    const items = (bodyOf(pending).items as unknown[]).length;
    // Each credit is pending, or already posted by a folder: 40 in all.
    expect(items + folded.balance).toBe(40);
  });
});

describe('an independent batch routes its coalesced chunks like single credits (§31)', () => {
  it('a chunk into a known deferred account costs no refused transaction', async () => {
    const a = await deferred();
    const chunk = () => Array.from({ length: 5 }, () => posting('credit', a, 1));
    // The first chunk may teach the batches that A is deferred (one refusal at most)…
    expect(await cancelledDuring(() => batch('independent', chunk()))).toBeLessThanOrEqual(1);
    // …after which every chunk into it commits at once.
    expect(await cancelledDuring(() => batch('independent', chunk()))).toBe(0);
  });

  it('learns from the single route: one routing decision for both (§33)', async () => {
    const a = await deferred();
    await api.post(`/v1/accounts/${a}/transactions`, {
      type: 'credit',
      amount: 1,
      currency: 'EUR',
    });
    const chunk = Array.from({ length: 5 }, () => posting('credit', a, 1));
    expect(await cancelledDuring(() => batch('independent', chunk))).toBe(0);
    expect(
      await cancelledDuring(() =>
        batch(
          'atomic',
          chunk.map((o) => ({ ...o, key: randomUUID() })),
        ),
      ),
    ).toBe(0);
  });
});

describe('operation keys and the batch fingerprint (§31, §36)', () => {
  it.each([
    ['a leading space', (id: string) => ` ${id}`],
    ['a trailing space', (id: string) => `${id} `],
    ['quotes', (id: string) => `"${id}"`],
    ['a comma', (id: string) => `${id},b`],
  ])('a key with %s: 400 naming the operation, nothing applied', async (_, keyOf) => {
    const a = await api.account();
    const ops = [posting('credit', a, 1), posting('credit', a, 1, {}, keyOf(randomUUID()))];
    const res = await batch('independent', ops);
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('operations.1.key');
    expect(await api.money(a)).toEqual({ balance: 0, available: 0 });
  });

  it('the same batch with upper- then lower-case ids under one key replays', async () => {
    const a = await api.account();
    const operations = [posting('credit', a, 7)];
    const key = randomUUID();
    const upper = operations.map((o) => ({ ...o, accountId: a.toUpperCase() }));
    const first = await batch('independent', upper, key);
    const again = await batch('independent', operations, key);
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await api.money(a)).toEqual({ balance: 7, available: 7 });
  });
});
