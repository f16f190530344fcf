import { randomUUID } from 'node:crypto';
import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../../../functions/dynamodb/table/keys';
import { TransactionPage } from '../../../functions/schemas/accounts';
import { LedgerTransaction } from '../../../functions/schemas/ledger-transactions';
import { Problem } from '../../../functions/schemas/shared';
import { bodyOf } from '../../support/ledger-api';
import { useLedgerFixture } from '../fixture';

/** docs/contract.md §16: N-leg ledger transactions over HTTP against DynamoDB Local. */
const fixture = useLedgerFixture();
const { api } = fixture;

type Direction = 'debit' | 'credit';
const leg = (accountId: string, direction: Direction, amount: number) => ({
  accountId,
  direction,
  amount,
});
const codeOf = (res: { body: string }) => Problem.parse(JSON.parse(res.body)).code;
const detailOf = (res: { body: string }) => Problem.parse(JSON.parse(res.body)).detail;

describe('POST /v1/ledger-transactions', () => {
  it('splits a payment over five accounts in one step: legs, entries, record, paymentId', async () => {
    const buyer = await api.account(10_000);
    const [seller, fee, tax, escrow] = [
      await api.account(),
      await api.account(),
      await api.account(),
      await api.account(),
    ];
    const legs = [
      leg(buyer, 'debit', 1_000),
      leg(seller, 'credit', 800),
      leg(fee, 'credit', 50),
      leg(tax, 'credit', 100),
      leg(escrow, 'credit', 50),
    ];
    const metadata = { order: 'o-42', channel: 'web' };
    const res = await api.ledgerTransaction(legs, {
      reference: 'order 42',
      paymentId: 'pay-42',
      metadata,
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = LedgerTransaction.parse(bodyOf(res));
    expect(created).toMatchObject({ currency: 'EUR', legs, reference: 'order 42', metadata });
    expect(created).not.toHaveProperty('reversedAmount');

    expect(await api.money(buyer)).toEqual({ balance: 9_000, available: 9_000 });
    for (const [account, amount] of [
      [seller, 800],
      [fee, 50],
      [tax, 100],
      [escrow, 50],
    ] as const) {
      expect(await api.money(account)).toEqual({ balance: amount, available: amount });
      const [entry] = TransactionPage.parse({
        items: await api.entries(account),
        nextCursor: null,
      }).items;
      expect(entry).toMatchObject({
        type: 'ledger_credit',
        amount,
        ledgerTransactionId: created.id,
        reference: 'order 42',
        metadata,
      });
      // The paymentId lives in the first debited account's namespace only.
      expect(entry).not.toHaveProperty('paymentId');
    }
    const [debit] = await api.entries(buyer);
    expect(debit).toMatchObject({
      type: 'ledger_debit',
      amount: 1_000,
      ledgerTransactionId: created.id,
      paymentId: 'pay-42',
    });

    const read = await api.get(`/v1/ledger-transactions/${created.id}`);
    expect(read.statusCode).toBe(200);
    expect(bodyOf(read)).toEqual({ ...created, reversedAmount: 0 });
    expect((await api.get(`/v1/ledger-transactions/${created.id}`, 'mallory')).statusCode).toBe(
      404,
    );
    expect((await api.get(`/v1/ledger-transactions/${randomUUID()}`)).statusCode).toBe(404);
  });

  it('replays its 201 byte for byte; the same key with other legs is 422 idempotency_key_reused', async () => {
    const [a, b] = [await api.account(100), await api.account()];
    const key = randomUUID();
    const legs = [leg(a, 'debit', 10), leg(b, 'credit', 10)];
    const first = await api.ledgerTransaction(legs, {}, key);
    // UUIDs are case-insensitive (§4): the retry names the accounts in upper case.
    const upper = legs.map((l) => ({ ...l, accountId: l.accountId.toUpperCase() }));
    const replay = await api.ledgerTransaction(upper, {}, key);
    expect(replay.statusCode).toBe(201);
    expect(replay.body).toBe(first.body);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const other = await api.ledgerTransaction([leg(a, 'debit', 11), leg(b, 'credit', 11)], {}, key);
    expect([other.statusCode, codeOf(other)]).toEqual([422, 'idempotency_key_reused']);
    expect(await api.money(a)).toEqual({ balance: 90, available: 90 });
  });

  it.each([
    ['one leg', (a: string, _b: string) => [leg(a, 'debit', 1)]],
    [
      '26 legs',
      (a: string, b: string) => Array.from({ length: 26 }, (_, i) => leg(i ? b : a, 'credit', 1)),
    ],
    [
      'an account twice (in another case)',
      (a: string, b: string) => [
        leg(a, 'debit', 2),
        leg(b, 'credit', 1),
        leg(a.toUpperCase(), 'credit', 1),
      ],
    ],
    ['a zero amount', (a: string, b: string) => [leg(a, 'debit', 0), leg(b, 'credit', 0)]],
    [
      'a fractional amount',
      (a: string, b: string) => [leg(a, 'debit', 1.5), leg(b, 'credit', 1.5)],
    ],
    [
      'a leg without direction',
      (a: string, b: string) => [{ accountId: a, amount: 1 }, leg(b, 'credit', 1)],
    ],
    [
      'a leg with an unknown field',
      (a: string, b: string) => [{ ...leg(a, 'debit', 1), memo: 'x' }, leg(b, 'credit', 1)],
    ],
  ])('refuses %s with 400 validation_failed, unrecorded', async (_name, legsOf) => {
    const [a, b] = [await api.account(100), await api.account()];
    const key = randomUUID();
    const bad = await api.post(
      '/v1/ledger-transactions',
      { currency: 'EUR', legs: legsOf(a, b) },
      key,
    );
    expect([bad.statusCode, codeOf(bad)]).toEqual([400, 'validation_failed']);
    const fixed = await api.ledgerTransaction([leg(a, 'debit', 1), leg(b, 'credit', 1)], {}, key);
    expect(fixed.statusCode).toBe(201);
  });

  it('answers 404 before legs_unbalanced, and records neither', async () => {
    const [a, b] = [await api.account(100), await api.account()];
    const foreign = await api.account(0, 'EUR', 'mallory');
    const key = randomUUID();
    const unknown = await api.ledgerTransaction(
      [leg(a, 'debit', 5), leg(randomUUID(), 'credit', 4)],
      {},
      key,
    );
    expect([unknown.statusCode, codeOf(unknown)]).toEqual([404, 'not_found']);
    const theirs = await api.ledgerTransaction(
      [leg(a, 'debit', 5), leg(foreign, 'credit', 4)],
      {},
      key,
    );
    expect([theirs.statusCode, codeOf(theirs)]).toEqual([404, 'not_found']);
    const unbalanced = await api.ledgerTransaction(
      [leg(a, 'debit', 5), leg(b, 'credit', 4)],
      {},
      key,
    );
    expect([unbalanced.statusCode, codeOf(unbalanced)]).toEqual([422, 'legs_unbalanced']);
    expect(detailOf(unbalanced)).toContain('5');
    expect(await api.money(a)).toEqual({ balance: 100, available: 100 });
    // Not recorded: the corrected request with the same key goes ahead.
    const fixed = await api.ledgerTransaction([leg(a, 'debit', 5), leg(b, 'credit', 5)], {}, key);
    expect(fixed.statusCode).toBe(201);
  });

  it('answers a balanced request naming a foreign or unknown account 404, unrecorded', async () => {
    const a = await api.account(100);
    const foreign = await api.account(0, 'EUR', 'mallory');
    const key = randomUUID();
    const res = await api.ledgerTransaction(
      [leg(a, 'debit', 5), leg(foreign, 'credit', 5)],
      {},
      key,
    );
    expect([res.statusCode, codeOf(res)]).toEqual([404, 'not_found']);
    expect(await api.money(a)).toEqual({ balance: 100, available: 100 });
    expect(await api.money(foreign, 'mallory')).toEqual({ balance: 0, available: 0 });
    const b = await api.account();
    expect(
      (await api.ledgerTransaction([leg(a, 'debit', 5), leg(b, 'credit', 5)], {}, key)).statusCode,
    ).toBe(201);
  });

  it('refuses in the order currency, closed, funds (first short leg named), cap, paymentId', async () => {
    const poor1 = await api.account(1);
    const poor2 = await api.account(1);
    const usd = await api.account(0, 'USD');
    const closed = await api.account();
    expect((await api.post(`/v1/accounts/${closed}/close`, {})).statusCode).toBe(200);
    const rich = await api.account(1_000);
    const full = await api.account();
    // A balance one short of 2^53 − 1: any credit passes the cap.
    await fixture.client.send(
      new UpdateItemCommand({
        TableName: fixture.tableName,
        Key: marshall(keys.account(full)),
        UpdateExpression: 'SET balance = :b, available = :b, spendable = :b',
        ExpressionAttributeValues: marshall({ ':b': Number.MAX_SAFE_INTEGER - 1 }),
      }),
    );
    const all = [
      leg(poor1, 'debit', 50),
      leg(poor2, 'debit', 50),
      leg(rich, 'debit', 10),
      leg(usd, 'credit', 10),
      leg(closed, 'credit', 10),
      leg(full, 'credit', 90),
    ];
    const refused = async (legs: typeof all) => {
      const res = await api.ledgerTransaction(legs);
      return [res.statusCode, codeOf(res), detailOf(res)] as const;
    };
    expect((await refused(all)).slice(0, 2)).toEqual([422, 'currency_mismatch']);
    // Without the USD leg (full gets its 10), the closed account wins over funds and the cap.
    const withoutUsd = [
      leg(poor1, 'debit', 50),
      leg(poor2, 'debit', 50),
      leg(rich, 'debit', 10),
      leg(closed, 'credit', 10),
      leg(full, 'credit', 100),
    ];
    expect((await refused(withoutUsd)).slice(0, 2)).toEqual([409, 'account_closed']);
    const open = await api.account();
    const funds = await refused([
      leg(poor1, 'debit', 50),
      leg(poor2, 'debit', 50),
      leg(rich, 'debit', 10),
      leg(open, 'credit', 10),
      leg(full, 'credit', 100),
    ]);
    expect(funds.slice(0, 2)).toEqual([409, 'insufficient_funds']);
    // The first short leg: poor1, although poor2 is short too.
    expect(funds[2]).toContain(poor1);
    expect(funds[2]).not.toContain(poor2);
    expect((await refused([leg(rich, 'debit', 10), leg(full, 'credit', 10)])).slice(0, 2)).toEqual([
      422,
      'balance_limit_exceeded',
    ]);

    const paid = await api.ledgerTransaction([leg(rich, 'debit', 1), leg(open, 'credit', 1)], {
      paymentId: 'dup',
    });
    expect(paid.statusCode).toBe(201);
    const again = await api.ledgerTransaction([leg(rich, 'debit', 1), leg(open, 'credit', 1)], {
      paymentId: 'dup',
    });
    expect([again.statusCode, codeOf(again)]).toEqual([409, 'payment_id_conflict']);
    // Nothing of the refused ones moved money.
    expect(await api.money(poor1)).toEqual({ balance: 1, available: 1 });
    expect(await api.money(rich)).toEqual({ balance: 999, available: 999 });
  });

  it('records and replays a refusal even after the state changed', async () => {
    const [a, b] = [await api.account(10), await api.account()];
    const key = randomUUID();
    const legs = [leg(a, 'debit', 50), leg(b, 'credit', 50)];
    const short = await api.ledgerTransaction(legs, {}, key);
    expect([short.statusCode, codeOf(short)]).toEqual([409, 'insufficient_funds']);
    await api.post(`/v1/accounts/${a}/transactions`, {
      type: 'credit',
      amount: 100,
      currency: 'EUR',
    });
    const replay = await api.ledgerTransaction(legs, {}, key);
    expect(replay.statusCode).toBe(409);
    expect(replay.body).toBe(short.body);
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  it('shares the paymentId namespace of the first debited account with its credits and debits', async () => {
    const [a, b] = [await api.account(100), await api.account(100)];
    const credit = { type: 'credit', amount: 1, currency: 'EUR', paymentId: 'shared' };
    expect((await api.post(`/v1/accounts/${a}/transactions`, credit)).statusCode).toBe(201);
    // b is the first debited account: its namespace is free.
    const ok = await api.ledgerTransaction([leg(a, 'credit', 5), leg(b, 'debit', 5)], {
      paymentId: 'shared',
    });
    expect(ok.statusCode, ok.body).toBe(201);
    const taken = await api.ledgerTransaction([leg(a, 'debit', 5), leg(b, 'credit', 5)], {
      paymentId: 'shared',
    });
    expect([taken.statusCode, codeOf(taken)]).toEqual([409, 'payment_id_conflict']);
    const b2 = await api.post(`/v1/accounts/${b}/transactions`, credit);
    expect([b2.statusCode, codeOf(b2)]).toEqual([409, 'payment_id_conflict']);
  });

  it('lets a debited leg draw on the overdraft, down to −overdraftLimit exactly (§17)', async () => {
    const settlement = await api.accountWith({ overdraftLimit: 500 });
    const [x, y] = [await api.account(), await api.account()];
    const over = await api.ledgerTransaction([
      leg(settlement, 'debit', 501),
      leg(x, 'credit', 501),
    ]);
    expect([over.statusCode, codeOf(over)]).toEqual([409, 'insufficient_funds']);
    const exact = await api.ledgerTransaction([
      leg(settlement, 'debit', 500),
      leg(x, 'credit', 300),
      leg(y, 'credit', 200),
    ]);
    expect(exact.statusCode, exact.body).toBe(201);
    expect(await api.money(settlement)).toEqual({ balance: -500, available: -500 });
  });
});
