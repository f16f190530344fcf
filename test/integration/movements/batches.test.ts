import { randomUUID } from 'node:crypto';
import { type DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpHandler } from '../../../functions/api/types';
import { idempotencyScopeId } from '../../../functions/domain/idempotency/fingerprint';
import { OPERATION_IDS } from '../../../functions/domain/idempotency/operations';
import { keys } from '../../../functions/dynamodb/table/keys';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import { Batch } from '../../../functions/schemas/batches';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { testConfig } from '../../support/config';
import { createTestTable } from '../../support/dynamo';
import { bodyOf, ledgerApi } from '../../support/ledger-api';

/** docs/contract.md §25: batches on DynamoDB Local. */

let client: DynamoDBClient;
let tableName: string;
let drop: () => Promise<void>;
let app: HttpHandler;
let api: ReturnType<typeof ledgerApi>;
/** TransactWriteItems calls since the last reset, with their item counts. */
let transactions: number[] = [];

beforeAll(async () => {
  ({ client, tableName, drop } = await createTestTable());
  client.middlewareStack.add(
    (next) => async (args) => {
      const input = args.input as { TransactItems?: unknown[] };
      if (input.TransactItems) transactions.push(input.TransactItems.length);
      return next(args);
    },
    { step: 'initialize', name: 'countTransactions' },
  );
  app = composeHttpHandler({
    dynamo: client,
    // The settled-response cache would answer replays without a call; these tests read the table.
    config: { ...testConfig({ tableName }), idempotencyLocalCache: false },
    callbackSecrets: staticCallbackSecrets('{}'),
  });
  api = ledgerApi(app);
});
afterAll(() => drop());

type Operation = Record<string, unknown>;
const credit = (
  accountId: string,
  amount: number,
  key: string = randomUUID(),
  extra = {},
): Operation => ({
  key,
  op: 'credit',
  accountId,
  body: { type: 'credit', amount, currency: 'EUR', ...extra },
});
const debit = (accountId: string, amount: number, key: string = randomUUID()): Operation => ({
  key,
  op: 'debit',
  accountId,
  body: { type: 'debit', amount, currency: 'EUR' },
});
const transfer = (
  from: string,
  to: string,
  amount: number,
  key: string = randomUUID(),
): Operation => ({
  key,
  op: 'transfer',
  body: { fromAccountId: from, toAccountId: to, amount, currency: 'EUR' },
});
const batch = (mode: string, operations: Operation[], key: string = randomUUID()) =>
  api.post('/v1/batches', { mode, operations }, key);
const resultsOf = (res: { body: string }) => Batch.parse(JSON.parse(res.body)).results;
const claimed = async (operation: string, key: string) => {
  const scope = idempotencyScopeId('alice', operation, key);
  const { Item } = await client.send(
    new GetItemCommand({ TableName: tableName, Key: marshall(keys.idempotency(scope)) }),
  );
  return Item !== undefined;
};
const versionOf = async (accountId: string) =>
  Number(bodyOf(await api.get(`/v1/accounts/${accountId}`)).version);

describe('POST /v1/batches, independent', () => {
  it('refuses an operation effective in the future before any runs, naming it (§26)', async () => {
    const future = new Date(Date.now() + 60_000).toISOString();
    for (const mode of ['independent', 'atomic']) {
      const [a, b] = [await api.account(), await api.account()];
      const keys = [randomUUID(), randomUUID(), randomUUID()];
      const sent = [
        credit(a, 5, keys[0]),
        transfer(a, b, 1, keys[1]),
        credit(b, 7, keys[2], { effectiveAt: future }),
      ];
      const batchKey = randomUUID();
      const res = await batch(mode, sent, batchKey);
      expect(res.statusCode).toBe(400);
      expect(bodyOf(res)).toMatchObject({
        code: 'validation_failed',
        errors: [{ path: 'body.operations.2.body.effectiveAt' }],
      });
      expect(await api.money(a)).toEqual({ balance: 0, available: 0 });
      expect(await claimed(OPERATION_IDS.postTransaction, keys[0] as string)).toBe(false);
      // Not recorded: the corrected batch goes ahead under the same key.
      const fixed = await batch(mode, [...sent.slice(0, 2), credit(b, 7, keys[2])], batchKey);
      expect(fixed.statusCode).toBe(200);
      expect(await api.money(b)).toEqual({ balance: 8, available: 8 });
    }
  });

  it('coalesces 100 credits of one account into 4 transactions, one account update each', async () => {
    const account = await api.account();
    transactions = [];
    const res = await batch(
      'independent',
      Array.from({ length: 100 }, (_, i) => credit(account, i + 1)),
    );
    expect(res.statusCode).toBe(200);
    const results = resultsOf(res);
    expect(results.map((r) => r.status)).toEqual(Array(100).fill(201));
    expect(await api.money(account)).toEqual({ balance: 5050, available: 5050 });
    expect(await versionOf(account)).toBe(100);
    // 30 + 30 + 30 + 10 operations, each 3 items, plus the account's one update; then the batch's record.
    expect(transactions).toEqual([91, 91, 91, 31, 1]);
  });

  it('answers in request order, each operation seeing the ones before it on its account', async () => {
    const [a, b] = [await api.account(), await api.account(50)];
    const res = await batch('independent', [
      credit(a, 100),
      debit(b, 80),
      debit(a, 60),
      transfer(a, b, 40),
      debit(a, 1),
    ]);
    expect(resultsOf(res).map((r) => r.status)).toEqual([201, 409, 201, 201, 409]);
    expect(resultsOf(res)[1]).toMatchObject({ body: { code: 'insufficient_funds' } });
    expect(await api.money(a)).toEqual({ balance: 0, available: 0 });
    expect(await api.money(b)).toEqual({ balance: 90, available: 90 });
  });

  it('replays an operation across the batch and the single route, both ways', async () => {
    const account = await api.account();
    const alone = await api.post(
      `/v1/accounts/${account}/transactions`,
      credit(account, 5).body,
      'k-alone',
    );
    const sent = [credit(account, 5, 'k-alone'), credit(account, 7, 'k-batch')];
    const res = await batch('independent', sent);
    const [first, second] = resultsOf(res);
    expect(first).toMatchObject({ status: 201, replayed: true });
    expect(JSON.stringify(first?.body)).toBe(alone.body);
    expect(second).toMatchObject({ status: 201 });
    expect(second).not.toHaveProperty('replayed');
    const again = await api.post(
      `/v1/accounts/${account}/transactions`,
      credit(account, 7).body,
      'k-batch',
    );
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(JSON.stringify(second?.body));
    const reused = await batch('independent', [credit(account, 8, 'k-batch')]);
    expect(resultsOf(reused)[0]).toMatchObject({
      status: 422,
      body: { code: 'idempotency_key_reused' },
    });
    expect(await api.money(account)).toEqual({ balance: 12, available: 12 });
  });

  it('replays a batch with its own key byte for byte, and refuses the key for another body', async () => {
    const account = await api.account();
    const operations = [credit(account, 3), debit(account, 10)];
    const first = await batch('independent', operations, 'batch-1');
    const again = await batch('independent', operations, 'batch-1');
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const other = await batch('independent', [credit(account, 4)], 'batch-1');
    expect(other.statusCode).toBe(422);
    expect(bodyOf(other).code).toBe('idempotency_key_reused');
    expect(await api.money(account)).toEqual({ balance: 3, available: 3 });
  });
});

describe('POST /v1/batches, atomic', () => {
  it('commits every operation in ONE transaction, one update per account', async () => {
    const [a, b] = [await api.account(100), await api.account()];
    transactions = [];
    const res = await batch('atomic', [
      credit(a, 10),
      transfer(a, b, 50),
      debit(a, 60),
      credit(b, 1),
    ]);
    expect(res.statusCode).toBe(200);
    expect(resultsOf(res).map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(transactions).toHaveLength(1);
    expect(await api.money(a)).toEqual({ balance: 0, available: 0 });
    expect(await api.money(b)).toEqual({ balance: 51, available: 51 });
    expect(await versionOf(a)).toBe(4);
  });

  it('rejects the whole batch with the first failing operation and records nothing for any', async () => {
    const [a, b] = [await api.account(100), await api.account()];
    const keys = ['ok-1', 'short', 'ok-2'].map((k) => `${k}-${randomUUID()}`);
    const res = await batch('atomic', [
      credit(a, 10, keys[0]),
      transfer(a, b, 200, keys[1]),
      credit(b, 5, keys[2]),
    ]);
    expect(res.statusCode).toBe(409);
    expect(bodyOf(res)).toMatchObject({
      code: 'batch_rejected',
      failedOperation: 1,
      cause: { status: 409, code: 'insufficient_funds' },
    });
    expect(await api.money(a)).toEqual({ balance: 100, available: 100 });
    expect(await api.money(b)).toEqual({ balance: 0, available: 0 });
    for (const key of keys) {
      expect(await claimed(OPERATION_IDS.postTransaction, key as string)).toBe(false);
      expect(await claimed(OPERATION_IDS.createTransfer, key as string)).toBe(false);
    }
  });

  it('names the later of two operations that share a paymentId', async () => {
    const a = await api.account();
    const res = await batch('atomic', [
      credit(a, 1, randomUUID(), { paymentId: 'pay-1' }),
      credit(a, 2),
      credit(a, 3, randomUUID(), { paymentId: 'pay-1' }),
    ]);
    expect(bodyOf(res)).toMatchObject({
      failedOperation: 2,
      cause: { code: 'payment_id_conflict' },
    });
    expect(await api.money(a)).toEqual({ balance: 0, available: 0 });
  });

  it('answers 400 batch_too_large before anything is claimed', async () => {
    const a = await api.account();
    const key = `too-large-${randomUUID()}`;
    const operations = Array.from({ length: 40 }, (_, i) => credit(a, 1, `${key}-${i}`));
    transactions = [];
    const res = await batch('atomic', operations, key);
    expect(res.statusCode).toBe(400);
    expect(bodyOf(res).code).toBe('batch_too_large');
    expect(transactions).toEqual([]);
    expect(await claimed(OPERATION_IDS.createBatch, key)).toBe(false);
    expect(await claimed(OPERATION_IDS.postTransaction, `${key}-0`)).toBe(false);
    // Not recorded: the same key goes ahead once the batch fits.
    const fits = await batch('atomic', operations.slice(0, 30), key);
    expect(fits.statusCode).toBe(200);
  });
});

describe('POST /v1/batches, validation', () => {
  it.each([
    [
      '101 operations',
      () => Array.from({ length: 101 }, () => credit(randomUUID(), 1)),
      'body.operations',
    ],
    ['no operation', () => [], 'body.operations'],
    [
      'a duplicate key',
      () => [credit(randomUUID(), 1, 'same'), credit(randomUUID(), 1, 'same')],
      'body.operations.1.key',
    ],
    ['an unknown op', () => [{ key: 'k', op: 'hold', body: {} }], 'body.operations.0.op'],
    [
      'op and type disagreeing',
      () => [{ ...credit(randomUUID(), 1), op: 'debit' }],
      'body.operations.0.body.type',
    ],
  ])('answers 400 validation_failed for %s, naming where', async (_, operations, path) => {
    const res = await batch('independent', operations());
    expect(res.statusCode).toBe(400);
    const body = bodyOf(res) as { code: string; errors: { path: string }[] };
    expect(body.code).toBe('validation_failed');
    expect(body.errors.map((e) => e.path)).toContain(path);
  });
});
