import { randomUUID } from 'node:crypto';
import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { monthEntriesAttribute } from '../../../functions/dynamodb/accounts/effective-history';
import { keys } from '../../../functions/dynamodb/table/keys';
import { bodyOf } from '../../support/ledger-api';
import { useLedgerFixture } from '../fixture';

/**
 * docs/contract.md §26 at the edges, over HTTP on a fixed clock: which entries a window holds
 * (`from ≤ effectiveAt < to`), their order on ties, paging, the window and page limits, effective
 * balances (`≤`, now + 5 s, who may read), and period closes (through now at most, the same
 * instant again, a recorded period_already_closed, books that stay as they were).
 */

let now = new Date();
const fixture = useLedgerFixture({ clock: () => now, config: { journalReaders: ['auditor'] } });
const { api } = fixture;
beforeEach(() => {
  now = new Date();
});

const DAY = 86_400_000;
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs).toISOString();

const move = (accountId: string, type: 'credit' | 'debit', amount: number, effectiveAt?: string) =>
  api.post(`/v1/accounts/${accountId}/transactions`, {
    type,
    amount,
    currency: 'EUR',
    ...(effectiveAt === undefined ? {} : { effectiveAt }),
  });
const statement = (accountId: string, query: Record<string, string>, as = 'alice') =>
  api.get(`/v1/accounts/${accountId}/statement`, as, query);
const balanceAt = (accountId: string, effectiveAt: string, as = 'alice') =>
  api.get(`/v1/accounts/${accountId}/balances`, as, { effectiveAt });
const amounts = (body: Record<string, unknown>) =>
  (body.items as { amount: number }[]).map((i) => i.amount);

describe('statement windows (docs/contract.md §26)', () => {
  it('hold from ≤ effectiveAt < to; an effective balance counts effectiveAt ≤ it', async () => {
    const id = await api.account();
    const t = at(-2 * DAY);
    expect((await move(id, 'credit', 100, t)).statusCode).toBe(201);
    const before = new Date(new Date(t).getTime() - 1).toISOString();
    const starting = bodyOf(await statement(id, { from: t, to: at(-DAY) }));
    expect([starting.openingBalance, starting.totalCredits, amounts(starting)]).toEqual([
      0,
      100,
      [100],
    ]);
    const ending = bodyOf(await statement(id, { from: at(-3 * DAY), to: t }));
    expect([ending.closingBalance, ending.totalCredits, amounts(ending)]).toEqual([0, 0, []]);
    expect(bodyOf(await statement(id, { from: t, to: at(-DAY) })).closingBalance).toBe(100);
    expect(bodyOf(await balanceAt(id, t)).balance).toBe(100);
    expect(bodyOf(await balanceAt(id, before))).toEqual({
      accountId: id,
      effectiveAt: before,
      balance: 0,
    });
  });

  it('orders ties on effectiveAt by commit, and pages with totals of the whole window', async () => {
    const id = await api.account();
    const t = at(-DAY);
    const start = now.getTime();
    // Written 1 ms apart, all effective at t; then one effective earlier, written last.
    for (const [i, amount] of [5, 1, 4, 2].entries()) {
      now = new Date(start + i);
      expect((await move(id, 'credit', amount, t)).statusCode).toBe(201);
    }
    expect((await move(id, 'debit', 3, at(-2 * DAY))).statusCode).toBe(201);
    const window = { from: at(-3 * DAY), to: at(0), limit: '2' };
    const pages: Record<string, unknown>[] = [];
    let cursor: string | undefined;
    do {
      const res = await statement(id, { ...window, ...(cursor ? { cursor } : {}) });
      expect(res.statusCode, res.body).toBe(200);
      pages.push(bodyOf(res));
      cursor = bodyOf(res).nextCursor === null ? undefined : String(bodyOf(res).nextCursor);
    } while (cursor);
    expect(pages.map(amounts)).toEqual([[3, 5], [1, 4], [2]]);
    for (const page of pages) {
      expect(page).toMatchObject({
        openingBalance: 0,
        totalCredits: 12,
        totalDebits: 3,
        closingBalance: 9,
      });
    }
  });

  it.each(['independent', 'atomic'])(
    "lists an %s batch's entries of one commit in request order (§36)",
    async (mode) => {
      const id = await api.account();
      const t = at(-DAY);
      const operations = [6, 2, 4, 3, 7, 8, 5, 1].map((amount) => ({
        key: randomUUID(),
        op: 'credit',
        accountId: id,
        body: { type: 'credit', amount, currency: 'EUR', effectiveAt: t },
      }));
      const res = await api.post('/v1/batches', { mode, operations });
      expect(res.statusCode, res.body).toBe(200);
      const page = bodyOf(await statement(id, { from: at(-2 * DAY), to: at(0) }));
      expect(amounts(page)).toEqual([6, 2, 4, 3, 7, 8, 5, 1]);
    },
  );

  it("lists an independent batch's entries in request order, applied alone or together (§36)", async () => {
    // Ties on effectiveAt and the batch's one commit time: only the position orders them.
    const [a, b, c] = [await api.account(), await api.account(), await api.account(100)];
    const t = at(-DAY);
    const posting = (accountId: string, type: 'credit' | 'debit', amount: number) => ({
      key: randomUUID(),
      op: type,
      accountId,
      body: { type, amount, currency: 'EUR', effectiveAt: t },
    });
    const leg = (accountId: string, direction: 'credit' | 'debit', amount: number) => ({
      accountId,
      direction,
      amount,
    });
    const operations = [
      // Coalesced into one transaction on `a`; `b`'s lone credit is applied on its own.
      posting(a, 'credit', 6),
      posting(a, 'credit', 2),
      posting(b, 'credit', 4),
      {
        key: randomUUID(),
        op: 'ledger_transaction',
        body: {
          currency: 'EUR',
          effectiveAt: t,
          legs: [leg(c, 'debit', 8), leg(a, 'credit', 5), leg(b, 'credit', 3)],
        },
      },
      // Lone postings of `c` and `b` around two credits coalesced on `a`.
      posting(c, 'debit', 7),
      posting(a, 'credit', 1),
      posting(a, 'credit', 9),
      posting(b, 'credit', 20),
      {
        key: randomUUID(),
        op: 'transfer',
        body: { fromAccountId: c, toAccountId: a, amount: 11, currency: 'EUR', effectiveAt: t },
      },
    ];
    const res = await api.post('/v1/batches', { mode: 'independent', operations });
    expect(res.statusCode, res.body).toBe(200);
    const results = bodyOf(res).results as { status: number }[];
    expect(results.map((r) => r.status)).toEqual(operations.map(() => 201));
    const window = { from: at(-2 * DAY), to: at(0) };
    const listed = async (id: string) => amounts(bodyOf(await statement(id, window)));
    expect(await listed(a)).toEqual([6, 2, 5, 1, 9, 11]);
    expect(await listed(b)).toEqual([4, 3, 20]);
    expect(await listed(c)).toEqual([8, 7, 11]);
  });

  it('answers 503 with Retry-After while the index trails a full month’s entry count (§31)', async () => {
    const id = await api.account();
    const t = at(-45 * DAY);
    for (const amount of [3, 4]) expect((await move(id, 'credit', amount, t)).statusCode).toBe(201);
    const window = { from: at(-80 * DAY), to: at(0) };
    expect(bodyOf(await statement(id, window)).totalCredits).toBe(7);
    // As if the index had not caught up with one more entry the month sums count.
    const trail = (by: number) =>
      fixture.client.send(
        new UpdateItemCommand({
          TableName: fixture.tableName,
          Key: marshall(keys.account(id)),
          UpdateExpression: 'ADD #n :by',
          ExpressionAttributeNames: { '#n': monthEntriesAttribute(t.slice(0, 7)) },
          ExpressionAttributeValues: marshall({ ':by': by }),
        }),
      );
    await trail(1);
    const behind = await statement(id, window);
    expect([behind.statusCode, behind.headers?.['retry-after']]).toEqual([503, '1']);
    await trail(-1);
    expect((await statement(id, window)).statusCode).toBe(200);
  });

  it('refuses from ≥ to, more than 366 days, and a limit outside 1–1000', async () => {
    const id = await api.account();
    const to = at(0);
    const window = (days: number, extra = 0) => ({ from: at(-days * DAY - extra), to });
    expect((await statement(id, { from: to, to })).statusCode).toBe(400);
    expect((await statement(id, window(366))).statusCode).toBe(200);
    const over = await statement(id, window(366, 1));
    expect(bodyOf(over)).toMatchObject({ code: 'validation_failed' });
    for (const limit of ['0', '1001']) {
      expect((await statement(id, { ...window(1), limit })).statusCode).toBe(400);
    }
    expect((await statement(id, { ...window(1), limit: '1000' })).statusCode).toBe(200);
  });

  it('is the owner’s only; an effective balance is the owner’s and the journal readers’', async () => {
    const id = await api.account(10);
    const window = { from: at(-DAY), to: at(1) };
    expect((await statement(id, window)).statusCode).toBe(200);
    expect((await statement(id, window, 'bob')).statusCode).toBe(404);
    expect((await statement(id, window, 'auditor')).statusCode).toBe(404);
    expect(bodyOf(await balanceAt(id, at(0), 'auditor')).balance).toBe(10);
    expect((await balanceAt(id, at(0), 'bob')).statusCode).toBe(404);
  });

  it('answers an effective balance up to now + 5 s, and asks for exactly one of asOf and effectiveAt', async () => {
    const id = await api.account(10);
    expect(bodyOf(await balanceAt(id, at(5_000))).balance).toBe(10);
    const ahead = await balanceAt(id, at(5_001));
    expect([ahead.statusCode, bodyOf(ahead).code]).toEqual([400, 'validation_failed']);
    const both = await api.get(`/v1/accounts/${id}/balances`, 'alice', {
      asOf: at(0),
      effectiveAt: at(0),
    });
    expect(both.statusCode).toBe(400);
  });
});

describe('period closes (docs/contract.md §26)', () => {
  const close = (id: string, through: string, key = randomUUID()) =>
    api.post(`/v1/accounts/${id}/period-closes`, { through }, key);

  it('take through up to now, answer the same instant again, and record period_already_closed', async () => {
    const id = await api.account(10);
    expect((await close(id, at(1))).statusCode).toBe(400);
    expect((await api.get(`/v1/accounts/${id}`)).body).not.toContain('closedThrough');
    const closed = await close(id, at(0));
    expect([closed.statusCode, bodyOf(closed).closedThrough]).toEqual([200, at(0)]);
    // The same instant with a new key: the account as it is.
    const same = await close(id, at(0));
    expect([same.statusCode, bodyOf(same).closedThrough]).toEqual([200, at(0)]);
    const key = randomUUID();
    const earlier = await close(id, at(-1), key);
    expect([earlier.statusCode, bodyOf(earlier).code]).toEqual([409, 'period_already_closed']);
    const replayed = await close(id, at(-1), key);
    expect(replayed.headers?.['idempotent-replayed']).toBe('true');
    expect(replayed.body).toBe(earlier.body);
    expect((await close(id, at(0), randomUUID())).statusCode).toBe(200);
    expect((await close(randomUUID(), at(0))).statusCode).toBe(404);
    const foreign = await api.post(
      `/v1/accounts/${id}/period-closes`,
      { through: at(0) },
      randomUUID(),
      'bob',
    );
    expect(foreign.statusCode).toBe(404);
  });

  it('move no money and keep statements and effective balances up to through as they were', async () => {
    const [id, other] = [await api.account(), await api.account(1_000)];
    await move(id, 'credit', 500, at(-20 * DAY));
    await move(id, 'debit', 50, at(-12 * DAY));
    const through = at(-10 * DAY);
    const version = bodyOf(await api.get(`/v1/accounts/${id}`)).version;
    expect((await close(id, through)).statusCode).toBe(200);
    expect(bodyOf(await api.get(`/v1/accounts/${id}`))).toMatchObject({ version, balance: 450 });
    const windows = [
      { from: at(-30 * DAY), to: through },
      { from: at(-15 * DAY), to: at(-11 * DAY) },
    ];
    const instants = [at(-21 * DAY), at(-15 * DAY), through];
    const read = async () => ({
      statements: await Promise.all(windows.map(async (w) => bodyOf(await statement(id, w)))),
      balances: await Promise.all(instants.map(async (i) => bodyOf(await balanceAt(id, i)))),
    });
    const books = await read();
    expect(books.balances.map((b) => b.balance)).toEqual([0, 500, 450]);
    for (const effectiveAt of [through, at(-11 * DAY), at(-25 * DAY)]) {
      expect(bodyOf(await move(id, 'credit', 7, effectiveAt)).code).toBe('period_closed');
      const transfer = {
        fromAccountId: other,
        toAccountId: id,
        amount: 7,
        currency: 'EUR',
        effectiveAt,
      };
      expect(bodyOf(await api.post('/v1/transfers', transfer)).code).toBe('period_closed');
    }
    expect((await move(id, 'credit', 7, at(-9 * DAY))).statusCode).toBe(201);
    expect(await read()).toEqual(books);
  });

  it("refuses a window or instant before an old account's effective history starts", async () => {
    const id = await api.account();
    expect((await move(id, 'credit', 100)).statusCode).toBe(201);
    // As an account last written before effective dates: no history attributes, its balance
    // held since its last update.
    const since = at(-5 * DAY);
    await fixture.client.send(
      new UpdateItemCommand({
        TableName: fixture.tableName,
        Key: marshall(keys.account(id)),
        UpdateExpression:
          'REMOVE effectiveOpening, effectiveSince, #credits SET updatedAt = :since',
        ExpressionAttributeNames: { '#credits': `ec#${now.toISOString().slice(0, 7)}` },
        ExpressionAttributeValues: marshall({ ':since': since }),
      }),
    );
    const early = await statement(id, { from: at(-6 * DAY), to: at(-DAY) });
    expect(early.statusCode).toBe(400);
    expect(bodyOf(early).errors).toEqual([expect.objectContaining({ path: 'query.from' })]);
    const before = await balanceAt(id, at(-6 * DAY));
    expect(bodyOf(before).errors).toEqual([expect.objectContaining({ path: 'query.effectiveAt' })]);
    expect(bodyOf(await balanceAt(id, since)).balance).toBe(100);
    const window = bodyOf(await statement(id, { from: since, to: at(-DAY) }));
    expect([window.openingBalance, window.closingBalance]).toEqual([100, 100]);
  });
});
