import { randomUUID } from 'node:crypto';
import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import type { HttpResult } from '../../../functions/api/types';
import { keys } from '../../../functions/dynamodb/table/keys';
import { Account } from '../../../functions/schemas/accounts';
import { Problem } from '../../../functions/schemas/shared';
import { APP, callbackBody, SECRET, signedCallback } from '../../support/callbacks';
import { bodyOf } from '../../support/ledger-api';
import { useLedgerFixture } from '../fixture';

/** docs/contract.md §17: overdraft limits and closing accounts. */
const fixture = useLedgerFixture({
  config: { callbackApplicationId: APP },
  callbackSecrets: JSON.stringify({ [APP]: [SECRET] }),
  results: { exists: async () => true, presignGet: async (key) => `https://s3.example/${key}` },
});
const { app, api } = fixture;

const problem = (res: HttpResult) => [res.statusCode, Problem.parse(JSON.parse(res.body)).code];
const credit = (accountId: string, amount: number, key?: string) =>
  api.post(
    `/v1/accounts/${accountId}/transactions`,
    { type: 'credit', amount, currency: 'EUR' },
    key,
  );
const debit = (accountId: string, amount: number, key?: string) =>
  api.post(
    `/v1/accounts/${accountId}/transactions`,
    { type: 'debit', amount, currency: 'EUR' },
    key,
  );
const close = (accountId: string, key?: string, as?: string) =>
  api.post(`/v1/accounts/${accountId}/close`, {}, key, as);

async function stored(accountId: string) {
  const { Item } = await fixture.client.send(
    new GetItemCommand({ TableName: fixture.tableName, Key: marshall(keys.account(accountId)) }),
  );
  return Item ? unmarshall(Item) : undefined;
}

describe('overdraftLimit', () => {
  it('is shown on every account: the given limit, or 0; open by default', async () => {
    const created = await api.post('/v1/accounts', { currency: 'EUR', overdraftLimit: 1_000 });
    expect(created.statusCode).toBe(201);
    expect(Account.parse(bodyOf(created))).toMatchObject({ overdraftLimit: 1_000, status: 'open' });
    const plain = Account.parse(bodyOf(await api.post('/v1/accounts', { currency: 'EUR' })));
    expect(plain).toMatchObject({ overdraftLimit: 0, status: 'open' });
    // spendable is kept beside available: available + overdraftLimit.
    expect(await stored(String(bodyOf(created).id))).toMatchObject({ spendable: 1_000 });
  });

  it.each([
    ['negative', -1],
    ['above 10^12', 1_000_000_000_001],
    ['fractional', 1.5],
    ['a string', '10'],
  ])('refuses an overdraftLimit that is %s with 400', async (_name, overdraftLimit) => {
    const res = await api.post('/v1/accounts', { currency: 'EUR', overdraftLimit });
    expect(problem(res)).toEqual([400, 'validation_failed']);
  });

  it('lets debits, transfers, holds and fees take available down to −overdraftLimit, no further', async () => {
    const account = await api.accountWith({ overdraftLimit: 1_000 }, 100);
    expect((await debit(account, 600)).statusCode).toBe(201);
    const other = await api.account();
    const transfer = await api.post('/v1/transfers', {
      fromAccountId: account,
      toAccountId: other,
      amount: 300,
      currency: 'EUR',
    });
    expect(transfer.statusCode, transfer.body).toBe(201);
    const hold = await api.post(`/v1/accounts/${account}/holds`, {
      amount: 200,
      currency: 'EUR',
      expiresInSeconds: 600,
    });
    expect(hold.statusCode, hold.body).toBe(201);
    expect(await api.money(account)).toEqual({ balance: -800, available: -1_000 });
    expect(problem(await debit(account, 1))).toEqual([409, 'insufficient_funds']);
    expect((await api.post(`/v1/holds/${bodyOf(hold).id}/voids`, {})).statusCode).toBe(200);
    // The export fee (100) draws on the overdraft too: −800 − 100.
    expect((await api.post(`/v1/accounts/${account}/exports`, { format: 'csv' })).statusCode).toBe(
      202,
    );
    expect((await debit(account, 100)).statusCode).toBe(201);
    expect(await api.money(account)).toEqual({ balance: -1_000, available: -1_000 });
    expect(problem(await debit(account, 1))).toEqual([409, 'insufficient_funds']);
    expect(await stored(account)).toMatchObject({ spendable: 0 });
  });

  it('keeps accounts from before overdrafts working: no spendable, no status, no available', async () => {
    const id = randomUUID();
    const at = new Date().toISOString();
    await fixture.client.send(
      new PutItemCommand({
        TableName: fixture.tableName,
        Item: marshall({
          ...keys.account(id),
          kind: 'account',
          id,
          ownerId: 'alice',
          currency: 'EUR',
          balance: 100,
          createdAt: at,
          updatedAt: at,
        }),
      }),
    );
    expect(Account.parse(bodyOf(await api.get(`/v1/accounts/${id}`)))).toMatchObject({
      available: 100,
      overdraftLimit: 0,
      status: 'open',
    });
    expect(problem(await debit(id, 101))).toEqual([409, 'insufficient_funds']);
    expect((await debit(id, 40)).statusCode).toBe(201);
    // The first change writes what was missing: available and spendable, both 60.
    expect(await stored(id)).toMatchObject({ balance: 60, available: 60, spendable: 60 });
    expect(problem(await debit(id, 61))).toEqual([409, 'insufficient_funds']);
    expect((await debit(id, 60)).statusCode).toBe(201);
    expect((await close(id)).statusCode).toBe(200);
  });
});

describe('POST /v1/accounts/{accountId}/close', () => {
  it('closes an empty account; a replay and a new key both answer 200', async () => {
    const account = await api.account(50);
    expect((await debit(account, 50)).statusCode).toBe(201);
    const key = randomUUID();
    const closed = await close(account, key);
    expect(closed.statusCode, closed.body).toBe(200);
    const body = Account.parse(bodyOf(closed));
    expect(body).toMatchObject({ id: account, status: 'closed', balance: 0, available: 0 });
    const replay = await close(account, key);
    expect(replay.body).toBe(closed.body);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const again = await close(account);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(bodyOf(again)).toEqual(bodyOf(closed));
    expect(Account.parse(bodyOf(await api.get(`/v1/accounts/${account}`))).status).toBe('closed');
  });

  it('refuses an account with a balance, a negative balance or active holds: account_not_empty, recorded', async () => {
    const rich = await api.account(10);
    const key = randomUUID();
    const refused = await close(rich, key);
    expect(problem(refused)).toEqual([409, 'account_not_empty']);
    expect((await debit(rich, 10)).statusCode).toBe(201);
    // Recorded: the same key replays the refusal although the account is empty now.
    expect((await close(rich, key)).body).toBe(refused.body);
    expect((await close(rich)).statusCode).toBe(200);

    const overdrawn = await api.accountWith({ overdraftLimit: 100 });
    expect((await debit(overdrawn, 30)).statusCode).toBe(201);
    expect(problem(await close(overdrawn))).toEqual([409, 'account_not_empty']);

    const held = await api.accountWith({ overdraftLimit: 100 });
    const hold = await api.post(`/v1/accounts/${held}/holds`, {
      amount: 20,
      currency: 'EUR',
      expiresInSeconds: 600,
    });
    expect(hold.statusCode).toBe(201);
    expect(problem(await close(held))).toEqual([409, 'account_not_empty']);
  });

  it('answers 404 for an unknown or foreign account, unrecorded', async () => {
    const account = await api.account();
    const key = randomUUID();
    expect(problem(await close(randomUUID(), key))).toEqual([404, 'not_found']);
    expect(problem(await close(account, key, 'mallory'))).toEqual([404, 'not_found']);
    expect((await close(account, key)).statusCode).toBe(200);
  });

  it('refuses every later effect with account_closed; reads, listings and reruns stay', async () => {
    const account = await api.account(200);
    const other = await api.account(500);
    const exported = await api.post(`/v1/accounts/${account}/exports`, { format: 'json' });
    expect(exported.statusCode).toBe(202);
    const task = bodyOf(exported);
    expect((await debit(account, 100)).statusCode).toBe(201);
    expect((await close(account)).statusCode).toBe(200);

    const refusals = [
      await credit(account, 1),
      await debit(account, 1),
      await api.post('/v1/transfers', {
        fromAccountId: other,
        toAccountId: account,
        amount: 1,
        currency: 'EUR',
      }),
      await api.post('/v1/transfers', {
        fromAccountId: account,
        toAccountId: other,
        amount: 1,
        currency: 'EUR',
      }),
      await api.ledgerTransaction([
        { accountId: other, direction: 'debit', amount: 1 },
        { accountId: account, direction: 'credit', amount: 1 },
      ]),
      await api.post(`/v1/accounts/${account}/holds`, {
        amount: 1,
        currency: 'EUR',
        expiresInSeconds: 60,
      }),
      await api.post(`/v1/accounts/${account}/exports`, { format: 'csv' }),
    ];
    expect(refusals.map(problem)).toEqual(refusals.map(() => [409, 'account_closed']));
    expect(await api.money(other)).toEqual({ balance: 500, available: 500 });

    expect((await api.get(`/v1/accounts/${account}`)).statusCode).toBe(200);
    expect((await api.get(`/v1/accounts/${account}/transactions`)).statusCode).toBe(200);
    expect((await api.get(`/v1/accounts/${account}/holds`)).statusCode).toBe(200);
    expect((await api.get(`/v1/accounts/${account}/event-sources`)).statusCode).toBe(200);
    // A task of a closed account may still be rerun: a rerun moves no money.
    const failed = await app(
      signedCallback(
        callbackBody({
          executionId: String(task.currentExecutionId),
          sequence: 1,
          status: 'FAILED',
        }),
      ),
    );
    expect(failed.statusCode).toBe(200);
    expect((await api.post(`/v1/tasks/${task.id}/reruns`, {})).statusCode).toBe(202);
  });

  it('closes once under racing closes with different keys, never over a credit that won', async () => {
    const account = await api.account();
    const results = await Promise.all([
      close(account),
      close(account),
      credit(account, 5),
      close(account),
    ]);
    const [first, second, credited, third] = results;
    const closes = [first, second, third];
    if (credited?.statusCode === 201) {
      // The credit came first: every close is refused, or came before it and the credit failed.
      expect(closes.every((r) => r?.statusCode === 409)).toBe(true);
      expect(await api.money(account)).toEqual({ balance: 5, available: 5 });
    } else {
      expect(credited && problem(credited)).toEqual([409, 'account_closed']);
      expect(closes.every((r) => r?.statusCode === 200)).toBe(true);
      expect(await api.money(account)).toEqual({ balance: 0, available: 0 });
    }
  });
});
