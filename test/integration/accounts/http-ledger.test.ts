import { type DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HttpHandler } from '../../../functions/api/types';
import { idempotencyScopeId } from '../../../functions/domain/idempotency/fingerprint';
import { OPERATION_IDS } from '../../../functions/domain/idempotency/operations';
import { keys } from '../../../functions/dynamodb/table/keys';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import { Account, Transaction, TransactionPage } from '../../../functions/schemas/accounts';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { Problem } from '../../../functions/schemas/shared';
import { type EventOptions, httpEvent } from '../../../kit/http-event';
import { testConfig } from '../../support/config';
import { createTestTable } from '../../support/dynamo';

const RETENTION = 3600;
let client: DynamoDBClient;
let tableName: string;
let drop: () => Promise<void>;
let app: HttpHandler;
let now: Date;

beforeAll(async () => {
  const table = await createTestTable();
  client = table.client;
  tableName = table.tableName;
  drop = table.drop;
  app = composeHttpHandler({
    dynamo: client,
    config: testConfig({ tableName: table.tableName, idempotencyRetentionSeconds: RETENTION }),
    callbackSecrets: staticCallbackSecrets('{}'),
    clock: () => now,
  });
});

afterAll(() => drop());

beforeEach(() => {
  // Real time: DynamoDB Local's TTL sweeper deletes items whose expiresAt is in the real past.
  now = new Date();
});

const call = (method: string, path: string, options: EventOptions = {}) =>
  app(httpEvent(method, path, { principal: 'alice', ...options }));

async function newAccount(principal = 'alice', currency = 'EUR'): Promise<string> {
  const res = await call('POST', '/v1/accounts', {
    principal,
    idempotencyKey: `acct-${Math.random()}`,
    body: { currency },
  });
  expect(res.statusCode).toBe(201);
  return Account.parse(JSON.parse(res.body)).id;
}

const post = (accountId: string, key: string, body: unknown, principal = 'alice') =>
  call('POST', `/v1/accounts/${accountId}/transactions`, { principal, idempotencyKey: key, body });

async function balanceOf(accountId: string, principal = 'alice'): Promise<number> {
  const res = await call('GET', `/v1/accounts/${accountId}`, { principal });
  return JSON.parse(res.body).balance;
}

async function entriesOf(accountId: string): Promise<unknown[]> {
  const res = await call('GET', `/v1/accounts/${accountId}/transactions`, {
    query: { limit: '100' },
  });
  return JSON.parse(res.body).items;
}

describe('HTTP ledger on DynamoDB Local', () => {
  it('applies 50 concurrent identical requests exactly once and answers all alike', async () => {
    const accountId = await newAccount();
    const body = { type: 'credit', amount: 500, currency: 'EUR', reference: 'topup' };
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => post(accountId, 'concurrent-1', body)),
    );
    const pairs = new Set(responses.map((r) => `${r.statusCode} ${r.body}`));
    const statuses = responses.map((r) => r.statusCode);
    const replays = responses.filter((r) => r.headers['idempotent-replayed'] === 'true').length;
    console.log(
      `50 concurrent: distinct status+body=${pairs.size}, replays=${replays}, balance=${await balanceOf(accountId)}`,
    );
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(pairs.size).toBe(1);
    expect(statuses[0]).toBe(201);
    expect(Transaction.parse(JSON.parse(responses[0]?.body ?? ''))).toMatchObject(body);
    expect(replays).toBe(49);
    expect(await balanceOf(accountId)).toBe(500);
    expect(await entriesOf(accountId)).toHaveLength(1);
  });
});

describe('request idempotency (docs/contract.md §4)', () => {
  it('replays a body that differs only in key order and whitespace', async () => {
    const accountId = await newAccount();
    const first = await post(accountId, 'order-1', { type: 'credit', amount: 7, currency: 'EUR' });
    const second = await call('POST', `/v1/accounts/${accountId}/transactions`, {
      idempotencyKey: '"order-1"',
      rawBody: '{ "currency" : "EUR",\n  "amount": 7, "type":"credit" }',
    });
    expect(second.statusCode).toBe(first.statusCode);
    expect(second.body).toBe(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await balanceOf(accountId)).toBe(7);
  });

  it('rejects the same key with a different amount (422) and changes nothing', async () => {
    const accountId = await newAccount();
    await post(accountId, 'mismatch-1', { type: 'credit', amount: 10, currency: 'EUR' });
    const res = await post(accountId, 'mismatch-1', {
      type: 'credit',
      amount: 11,
      currency: 'EUR',
    });
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(Problem.parse(JSON.parse(res.body)).code).toBe('idempotency_key_reused');
    expect(await balanceOf(accountId)).toBe(10);
    expect(await entriesOf(accountId)).toHaveLength(1);
  });

  it('treats a record past expiresAt that is still stored as absent', async () => {
    const accountId = await newAccount();
    const body = { type: 'credit', amount: 5, currency: 'EUR' };
    const first = await post(accountId, 'expiring-1', body);
    now = new Date(now.getTime() + (RETENTION - 1) * 1000);
    const inside = await post(accountId, 'expiring-1', body);
    expect(inside.headers['idempotent-replayed']).toBe('true');
    now = new Date(now.getTime() + 2000);
    // The record is still stored (DynamoDB deletes expired items lazily) yet counts as absent.
    const scope = idempotencyScopeId('alice', OPERATION_IDS.postTransaction, 'expiring-1');
    const { Item } = await client.send(
      new GetItemCommand({ TableName: tableName, Key: marshall(keys.idempotency(scope)) }),
    );
    expect(Item?.expiresAt?.N).toBeDefined();
    expect(Number(Item?.expiresAt?.N)).toBeLessThan(now.getTime() / 1000);
    const after = await post(accountId, 'expiring-1', body);
    expect(after.statusCode).toBe(201);
    expect(after.headers['idempotent-replayed']).toBeUndefined();
    expect(JSON.parse(after.body).id).not.toBe(JSON.parse(first.body).id);
    expect(await balanceOf(accountId)).toBe(10);
  });

  it('replays insufficient funds even after a later credit', async () => {
    const accountId = await newAccount();
    const debit = { type: 'debit', amount: 50, currency: 'EUR' };
    const first = await post(accountId, 'debit-1', debit);
    expect(first.statusCode).toBe(409);
    expect(JSON.parse(first.body).code).toBe('insufficient_funds');
    await post(accountId, 'credit-after', { type: 'credit', amount: 100, currency: 'EUR' });
    const replay = await post(accountId, 'debit-1', debit);
    expect(replay.statusCode).toBe(409);
    expect(replay.body).toBe(first.body);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await balanceOf(accountId)).toBe(100);
    const fresh = await post(accountId, 'debit-2', debit);
    expect(fresh.statusCode).toBe(201);
    expect(await balanceOf(accountId)).toBe(50);
  });

  it('records a currency mismatch and replays it', async () => {
    const accountId = await newAccount('alice', 'EUR');
    const body = { type: 'credit', amount: 5, currency: 'USD' };
    const first = await post(accountId, 'ccy-1', body);
    expect(first.statusCode).toBe(422);
    expect(JSON.parse(first.body).code).toBe('currency_mismatch');
    const replay = await post(accountId, 'ccy-1', body);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(first.body);
  });

  it('does not record a 400: a corrected retry with the same key proceeds', async () => {
    const accountId = await newAccount();
    const bad = await post(accountId, 'fixme-1', { type: 'credit', amount: -1, currency: 'EUR' });
    expect(bad.statusCode).toBe(400);
    expect(JSON.parse(bad.body).code).toBe('validation_failed');
    const good = await post(accountId, 'fixme-1', { type: 'credit', amount: 1, currency: 'EUR' });
    expect(good.statusCode).toBe(201);
    expect(good.headers['idempotent-replayed']).toBeUndefined();
  });

  it('does not record a 404: the key stays free for the right account', async () => {
    const accountId = await newAccount();
    const missing = '00000000-0000-4000-8000-000000000000';
    const body = { type: 'credit', amount: 3, currency: 'EUR' };
    const res = await call('POST', `/v1/accounts/${missing}/transactions`, {
      idempotencyKey: 'nf-1',
      body,
    });
    expect(res.statusCode).toBe(404);
    expect((await post(accountId, 'nf-1', body)).statusCode).toBe(201);
  });

  it('refuses a paymentId reused after the idempotency window (409, forever)', async () => {
    const accountId = await newAccount();
    const body = { type: 'credit', amount: 9, currency: 'EUR', paymentId: 'pay-42' };
    expect((await post(accountId, 'pay-a', body)).statusCode).toBe(201);
    now = new Date(now.getTime() + (RETENTION + 10) * 1000);
    const again = await post(accountId, 'pay-a', body);
    expect(again.statusCode).toBe(409);
    expect(JSON.parse(again.body).code).toBe('payment_id_conflict');
    const otherKey = await post(accountId, 'pay-b', { ...body, amount: 1 });
    expect(JSON.parse(otherKey.body).code).toBe('payment_id_conflict');
    // The refusal is recorded: the same request again replays it byte for byte.
    const replay = await post(accountId, 'pay-b', { ...body, amount: 1 });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(otherKey.body);
    expect(await balanceOf(accountId)).toBe(9);
  });

  it('hides an account from another principal (404) and scopes keys per principal', async () => {
    const accountId = await newAccount('alice');
    const bobAccount = await newAccount('bob');
    const body = { type: 'credit', amount: 4, currency: 'EUR' };
    const stolen = await post(accountId, 'shared-key', body, 'bob');
    expect(stolen.statusCode).toBe(404);
    expect(JSON.parse(stolen.body).code).toBe('not_found');
    expect((await call('GET', `/v1/accounts/${accountId}`, { principal: 'bob' })).statusCode).toBe(
      404,
    );
    expect(
      (await call('GET', `/v1/accounts/${accountId}/transactions`, { principal: 'bob' }))
        .statusCode,
    ).toBe(404);
    const alice = await post(accountId, 'shared-key', body, 'alice');
    const bob = await post(bobAccount, 'shared-key', body, 'bob');
    expect(alice.statusCode).toBe(201);
    expect(bob.statusCode).toBe(201);
    expect(bob.headers['idempotent-replayed']).toBeUndefined();
  });

  it('scopes a key to its operation: the same key on two routes is two requests', async () => {
    const accountId = await newAccount();
    const created = await call('POST', '/v1/accounts', {
      idempotencyKey: 'shared-op-key',
      body: { currency: 'EUR' },
    });
    const posted = await post(accountId, 'shared-op-key', {
      type: 'credit',
      amount: 2,
      currency: 'EUR',
    });
    expect(created.statusCode).toBe(201);
    expect(posted.statusCode).toBe(201);
    expect(posted.headers['idempotent-replayed']).toBeUndefined();
  });

  it('replays account creation', async () => {
    const body = { currency: 'GBP', name: 'savings' };
    const first = await call('POST', '/v1/accounts', { idempotencyKey: 'acct-x', body });
    const again = await call('POST', '/v1/accounts', { idempotencyKey: 'acct-x', body });
    expect(first.statusCode).toBe(201);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const other = await call('POST', '/v1/accounts', {
      idempotencyKey: 'acct-x',
      body: { currency: 'USD' },
    });
    expect(other.statusCode).toBe(422);
  });
});

describe('transaction listing', () => {
  it('lists HTTP entries newest first across pages with origin', async () => {
    const accountId = await newAccount();
    for (let i = 1; i <= 5; i++) {
      now = new Date(now.getTime() + 1000);
      await post(accountId, `list-${i}`, { type: 'credit', amount: i, currency: 'EUR' });
    }
    const page1 = await call('GET', `/v1/accounts/${accountId}/transactions`, {
      query: { limit: '2' },
    });
    const first = TransactionPage.parse(JSON.parse(page1.body));
    expect(first.items.map((e: { amount: number }) => e.amount)).toEqual([5, 4]);
    expect(first.items[0]?.origin).toBe('http');
    expect(first.nextCursor).toEqual(expect.any(String));
    const page2 = JSON.parse(
      (
        await call('GET', `/v1/accounts/${accountId}/transactions`, {
          query: { limit: '3', cursor: first.nextCursor ?? '' },
        })
      ).body,
    );
    expect(page2.items.map((e: { amount: number }) => e.amount)).toEqual([3, 2, 1]);
    expect(page2.nextCursor).toBeNull();
  });

  it('rejects a forged cursor and an out-of-range limit with 400', async () => {
    const accountId = await newAccount();
    const queries: Record<string, string>[] = [
      { cursor: 'bm90LWEtY3Vyc29y' },
      { limit: '101' },
      { limit: '0' },
    ];
    for (const query of queries) {
      const res = await call('GET', `/v1/accounts/${accountId}/transactions`, { query });
      expect(res.statusCode).toBe(400);
      expect(JSON.parse(res.body).code).toBe('validation_failed');
    }
  });
});
