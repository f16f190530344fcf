import { randomUUID } from 'node:crypto';
import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../../../functions/dynamodb/table/keys';
import { TransactionPage } from '../../../functions/schemas/accounts';
import { Problem } from '../../../functions/schemas/shared';
import { Transfer } from '../../../functions/schemas/transfers';
import { bodyOf } from '../../support/ledger-api';
import { useLedgerFixture } from '../fixture';

const fixture = useLedgerFixture();
const { api } = fixture;

const transfer = (body: Record<string, unknown>, key: string = randomUUID(), as?: string) =>
  api.post('/v1/transfers', { currency: 'EUR', ...body }, key, as);

const codeOf = (res: { body: string }) => Problem.parse(JSON.parse(res.body)).code;

describe('POST /v1/transfers', () => {
  it('moves money between two accounts in one step and shows a leg in each listing', async () => {
    const [a, b] = [await api.account(1_000), await api.account()];
    const res = await transfer({ fromAccountId: a, toAccountId: b, amount: 300, paymentId: 'p-1' });
    expect(res.statusCode).toBe(201);
    const created = Transfer.parse(JSON.parse(res.body));
    expect(created).toMatchObject({ fromAccountId: a, toAccountId: b, amount: 300 });

    expect(await api.money(a)).toEqual({ balance: 700, available: 700 });
    expect(await api.money(b)).toEqual({ balance: 300, available: 300 });
    const [out] = TransactionPage.parse({ items: await api.entries(a), nextCursor: null }).items;
    expect(out).toMatchObject({
      type: 'transfer_out',
      transferId: created.id,
      counterpartyAccountId: b,
      paymentId: 'p-1',
    });
    const [incoming] = await api.entries(b);
    expect(incoming).toMatchObject({
      type: 'transfer_in',
      transferId: created.id,
      counterpartyAccountId: a,
    });
    expect(incoming).not.toHaveProperty('paymentId');

    const read = await api.get(`/v1/transfers/${created.id}`);
    expect(read.statusCode).toBe(200);
    // A read shows how much reversals moved back (docs/contract.md §16); the 201 does not.
    expect(JSON.parse(read.body)).toEqual({ ...created, reversedAmount: 0 });
    expect(created).not.toHaveProperty('reversedAmount');
    expect((await api.get(`/v1/transfers/${created.id}`, 'mallory')).statusCode).toBe(404);
  });

  it('refuses from == to with 400, unrecorded: a corrected retry with the key goes ahead', async () => {
    const [a, b] = [await api.account(100), await api.account()];
    const key = randomUUID();
    const same = await transfer({ fromAccountId: a, toAccountId: a.toUpperCase(), amount: 1 }, key);
    expect(same.statusCode).toBe(400);
    expect(codeOf(same)).toBe('validation_failed');
    const fixed = await transfer({ fromAccountId: a, toAccountId: b, amount: 1 }, key);
    expect(fixed.statusCode).toBe(201);
  });

  it('replays a retry that writes the account ids in another case (UUIDs are case-insensitive, §4)', async () => {
    const [a, b] = [await api.account(1_000), await api.account()];
    const key = randomUUID();
    const first = await transfer({ fromAccountId: a, toAccountId: b, amount: 10 }, key);
    expect(first.statusCode).toBe(201);
    const upper = { fromAccountId: a.toUpperCase(), toAccountId: b.toUpperCase(), amount: 10 };
    const retry = await transfer(upper, key);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers?.['idempotent-replayed']).toBe('true');
    expect(retry.body).toBe(first.body);
    expect(await api.money(a)).toEqual({ balance: 990, available: 990 });
  });

  it("answers 404 for another owner's account on either side, and records nothing", async () => {
    const mine = await api.account(100);
    const theirs = await api.account(100, 'EUR', 'bob');
    const key = randomUUID();
    const to = await transfer({ fromAccountId: mine, toAccountId: theirs, amount: 5 }, key);
    const from = await transfer({ fromAccountId: theirs, toAccountId: mine, amount: 5 });
    expect([to.statusCode, from.statusCode]).toEqual([404, 404]);
    expect(await api.money(theirs, 'bob')).toEqual({ balance: 100, available: 100 });
    const other = await api.account();
    expect(
      (await transfer({ fromAccountId: mine, toAccountId: other, amount: 5 }, key)).statusCode,
    ).toBe(201);
  });

  it.each([
    ['the source', 'USD', 'EUR'],
    ['the destination', 'EUR', 'USD'],
  ])('records 422 currency_mismatch against %s and replays it', async (_side, fromCcy, toCcy) => {
    const a = await api.account(100, fromCcy);
    const b = await api.account(0, toCcy);
    const key = randomUUID();
    const body = { fromAccountId: a, toAccountId: b, amount: 10, currency: 'USD' };
    const first = await transfer(body, key);
    expect(first.statusCode).toBe(422);
    expect(codeOf(first)).toBe('currency_mismatch');
    const replay = await transfer(body, key);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(first.body);
  });

  it('records 409 insufficient_funds and replays it even after the money arrived', async () => {
    const [a, b] = [await api.account(50), await api.account()];
    const key = randomUUID();
    const body = { fromAccountId: a, toAccountId: b, amount: 80 };
    const first = await transfer(body, key);
    expect(first.statusCode).toBe(409);
    expect(codeOf(first)).toBe('insufficient_funds');
    await api.post(`/v1/accounts/${a}/transactions`, {
      type: 'credit',
      amount: 100,
      currency: 'EUR',
    });
    const replay = await transfer(body, key);
    expect(replay).toMatchObject({ statusCode: 409, body: first.body });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await api.money(a)).toEqual({ balance: 150, available: 150 });
  });

  it('checks the available balance: money on hold cannot be transferred', async () => {
    const [a, b] = [await api.account(100), await api.account()];
    const hold = { amount: 80, currency: 'EUR', expiresInSeconds: 600 };
    expect((await api.post(`/v1/accounts/${a}/holds`, hold)).statusCode).toBe(201);
    const res = await transfer({ fromAccountId: a, toAccountId: b, amount: 30 });
    expect(codeOf(res)).toBe('insufficient_funds');
    expect((await transfer({ fromAccountId: a, toAccountId: b, amount: 20 })).statusCode).toBe(201);
  });

  it('shares the paymentId namespace of the source with credits and debits; the destination leg takes none', async () => {
    const [a, b] = [await api.account(100), await api.account()];
    const debit = { type: 'debit', amount: 1, currency: 'EUR', paymentId: 'inv-7' };
    expect((await api.post(`/v1/accounts/${a}/transactions`, debit)).statusCode).toBe(201);
    const key = randomUUID();
    const body = { fromAccountId: a, toAccountId: b, amount: 5, paymentId: 'inv-7' };
    const taken = await transfer(body, key);
    expect(codeOf(taken)).toBe('payment_id_conflict');
    expect((await transfer(body, key)).headers['idempotent-replayed']).toBe('true');

    const ok = await transfer({ fromAccountId: a, toAccountId: b, amount: 5, paymentId: 'inv-8' });
    expect(ok.statusCode).toBe(201);
    const credit = { type: 'credit', amount: 1, currency: 'EUR', paymentId: 'inv-8' };
    expect((await api.post(`/v1/accounts/${b}/transactions`, credit)).statusCode).toBe(201);
  });

  it('treats a missing available attribute as the balance (accounts from before holds)', async () => {
    const [a, b] = [await api.account(100), await api.account()];
    await fixture.client.send(
      new UpdateItemCommand({
        TableName: fixture.tableName,
        Key: marshall(keys.account(a)),
        UpdateExpression: 'REMOVE available',
      }),
    );
    expect(await api.money(a)).toEqual({ balance: 100, available: 100 });
    expect(codeOf(await transfer({ fromAccountId: a, toAccountId: b, amount: 101 }))).toBe(
      'insufficient_funds',
    );
    expect((await transfer({ fromAccountId: a, toAccountId: b, amount: 60 })).statusCode).toBe(201);
    expect(await api.money(a)).toEqual({ balance: 40, available: 40 });
  });
});

describe('concurrent transfers', () => {
  it('20 A→B and 20 B→A with duplicates: no 5xx, one effect per key, money conserved', async () => {
    const [a, b] = [await api.account(10_000), await api.account(10_000)];
    const requests = Array.from({ length: 40 }, (_, i) => ({
      key: `race-${i}-${randomUUID()}`,
      body:
        i % 2 === 0
          ? { fromAccountId: a, toAccountId: b, amount: 100 + i }
          : { fromAccountId: b, toAccountId: a, amount: 100 + i },
    }));
    // Every request is sent twice at once: the duplicate must replay or wait, never apply.
    const sends = requests.flatMap((r) => [r, r]).map((r) => transfer(r.body, r.key));
    const results = await Promise.all(sends);
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    const refused = results.filter((r) => r.statusCode !== 201);
    expect(refused.map(codeOf).filter((c) => c !== 'idempotency_key_in_use')).toEqual([]);

    // Retry what was contended until every key has its one answer; both sends of a key that
    // succeeded in the race carry the same transfer.
    const ids = new Set<unknown>();
    for (const [i, r] of requests.entries()) {
      let res = await transfer(r.body, r.key);
      while (res.statusCode === 409) res = await transfer(r.body, r.key);
      expect(res.statusCode).toBe(201);
      ids.add(bodyOf(res).id);
      for (const raced of [results[2 * i], results[2 * i + 1]]) {
        if (raced?.statusCode === 201) expect(bodyOf(raced).id).toBe(bodyOf(res).id);
      }
    }
    expect(ids.size).toBe(40);
    const moved = requests.reduce(
      (sum, r) => sum + (r.body.fromAccountId === a ? -r.body.amount : r.body.amount),
      0,
    );
    const [ma, mb] = [await api.money(a), await api.money(b)];
    expect(ma.balance + mb.balance).toBe(20_000);
    expect(ma).toEqual({ balance: 10_000 + moved, available: 10_000 + moved });
    expect(
      (await api.entries(a)).filter((e) => String(e.type).startsWith('transfer')),
    ).toHaveLength(40);
  });
});
