import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { HttpHandler } from '../../../functions/api/types';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { httpEvent } from '../../../kit/http-event';
import { testConfig } from '../../support/config';
import { createTestTable } from '../../support/dynamo';

let client: DynamoDBClient;
let drop: () => Promise<void>;
let app: HttpHandler;
let cachedApp: HttpHandler;
let tableName: string;
const commands: string[] = [];

beforeAll(async () => {
  const table = await createTestTable();
  ({ client, drop } = table);
  // Counts every DynamoDB command that leaves the client, SDK retries included.
  client.middlewareStack.add(
    (next, context) => async (args) => {
      commands.push(String(context.commandName));
      return next(args);
    },
    { step: 'finalizeRequest', name: 'countRoundTrips' },
  );
  tableName = table.tableName;
  // Cache misses are what docs/contract.md §4 counts; the cache is measured on its own below.
  // The hedged claim read adds one GetItem beside each write, counted in hedged-claims.test.ts.
  app = composeHttpHandler({
    dynamo: client,
    config: testConfig({ tableName, idempotencyLocalCache: false, idempotencyHedgedRead: 'off' }),
    callbackSecrets: staticCallbackSecrets('{}'),
  });
  cachedApp = composeHttpHandler({
    dynamo: client,
    config: testConfig({ tableName, idempotencyHedgedRead: 'off' }),
    callbackSecrets: staticCallbackSecrets('{}'),
  });
});

afterAll(() => drop());

async function roundTrips(run: () => Promise<unknown>): Promise<string[]> {
  commands.length = 0;
  await run();
  return [...commands];
}

const send = (key: string, body: unknown, path = '/v1/accounts', via = app) =>
  via(httpEvent('POST', path, { principal: 'carol', idempotencyKey: key, body }));

it('costs one DynamoDB round trip for a first request, a replay and a mismatch', async () => {
  let accountId = '';
  const create = await roundTrips(async () => {
    accountId = JSON.parse((await send('rt-acct', { currency: 'EUR' })).body).id;
  });
  const path = `/v1/accounts/${accountId}/transactions`;
  const credit = { type: 'credit', amount: 10, currency: 'EUR' };
  const first = await roundTrips(() => send('rt-1', credit, path));
  const replay = await roundTrips(() => send('rt-1', credit, path));
  const mismatch = await roundTrips(() => send('rt-1', { ...credit, amount: 11 }, path));
  console.log({ create, first, replay, mismatch });
  expect(create).toEqual(['TransactWriteItemsCommand']);
  expect(first).toEqual(['TransactWriteItemsCommand']);
  expect(replay).toEqual(['TransactWriteItemsCommand']);
  expect(mismatch).toEqual(['TransactWriteItemsCommand']);
});

it('answers replays and mismatches of keys it saw settle without a call; a cold instance pays one', async () => {
  const accountId = JSON.parse((await send('rt-cache-acct', { currency: 'EUR' })).body).id;
  const path = `/v1/accounts/${accountId}/transactions`;
  const credit = { type: 'credit', amount: 10, currency: 'EUR' };
  let firstBody = '';
  const first = await roundTrips(async () => {
    firstBody = (await send('rt-cache', credit, path, cachedApp)).body;
  });
  let replayed: Awaited<ReturnType<HttpHandler>> | undefined;
  const replay = await roundTrips(async () => {
    replayed = await send('rt-cache', credit, path, cachedApp);
  });
  let mismatched = 0;
  const mismatch = await roundTrips(async () => {
    mismatched = (await send('rt-cache', { ...credit, amount: 11 }, path, cachedApp)).statusCode;
  });
  expect(first).toEqual(['TransactWriteItemsCommand']);
  expect(replay).toEqual([]);
  expect(replayed?.body).toBe(firstBody);
  expect(replayed?.headers['idempotent-replayed']).toBe('true');
  expect(mismatch).toEqual([]);
  expect(mismatched).toBe(422);
  // Another instance (its own cache) has not seen the key: one call, then none.
  const coldInstance = composeHttpHandler({
    dynamo: client,
    config: testConfig({ tableName, idempotencyHedgedRead: 'off' }),
    callbackSecrets: staticCallbackSecrets('{}'),
  });
  expect(await roundTrips(() => send('rt-cache', credit, path, coldInstance))).toEqual([
    'TransactWriteItemsCommand',
  ]);
  expect(await roundTrips(() => send('rt-cache', credit, path, coldInstance))).toEqual([]);
});

it('costs one DynamoDB round trip for a transfer, its replay and a mismatch (docs/contract.md §10)', async () => {
  const open = async (key: string) =>
    JSON.parse((await send(key, { currency: 'EUR' })).body).id as string;
  const [from, to] = [await open('rt-from'), await open('rt-to')];
  await send(
    'rt-fund',
    { type: 'credit', amount: 100, currency: 'EUR' },
    `/v1/accounts/${from}/transactions`,
  );
  const body = { fromAccountId: from, toAccountId: to, amount: 40, currency: 'EUR' };
  const first = await roundTrips(() => send('rt-t1', body, '/v1/transfers'));
  const replay = await roundTrips(() => send('rt-t1', body, '/v1/transfers'));
  const mismatch = await roundTrips(() => send('rt-t1', { ...body, amount: 41 }, '/v1/transfers'));
  console.log({ transfer: first, replay, mismatch });
  expect(first).toEqual(['TransactWriteItemsCommand']);
  expect(replay).toEqual(['TransactWriteItemsCommand']);
  expect(mismatch).toEqual(['TransactWriteItemsCommand']);
});

it('costs one round trip to place a hold, two (read the hold, write) to capture or void it', async () => {
  const account = JSON.parse((await send('rt-h', { currency: 'EUR' })).body).id as string;
  await send(
    'rt-hf',
    { type: 'credit', amount: 100, currency: 'EUR' },
    `/v1/accounts/${account}/transactions`,
  );
  const hold = { amount: 30, currency: 'EUR', expiresInSeconds: 60 };
  let holdId = '';
  const place = await roundTrips(async () => {
    holdId = JSON.parse((await send('rt-h1', hold, `/v1/accounts/${account}/holds`)).body).id;
  });
  const replay = await roundTrips(() => send('rt-h1', hold, `/v1/accounts/${account}/holds`));
  const capture = await roundTrips(() => send('rt-c1', {}, `/v1/holds/${holdId}/captures`));
  expect(place).toEqual(['TransactWriteItemsCommand']);
  expect(replay).toEqual(['TransactWriteItemsCommand']);
  expect(capture).toEqual(['GetItemCommand', 'TransactWriteItemsCommand']);
});

it('costs one DynamoDB round trip for a 5-leg ledger transaction, its replay and a mismatch (§16)', async () => {
  const open = async (key: string) =>
    JSON.parse((await send(key, { currency: 'EUR' })).body).id as string;
  const ids = [await open('rt-l0'), await open('rt-l1'), await open('rt-l2')];
  ids.push(await open('rt-l3'), await open('rt-l4'));
  await send(
    'rt-lfund',
    { type: 'credit', amount: 100, currency: 'EUR' },
    `/v1/accounts/${ids[0]}/transactions`,
  );
  const legs = ids.map((accountId, i) => ({
    accountId,
    direction: i === 0 ? 'debit' : 'credit',
    amount: i === 0 ? 40 : 10,
  }));
  const body = { currency: 'EUR', legs, metadata: { order: '1' } };
  const first = await roundTrips(() => send('rt-lt1', body, '/v1/ledger-transactions'));
  const replay = await roundTrips(() => send('rt-lt1', body, '/v1/ledger-transactions'));
  const other = { ...body, metadata: { order: '2' } };
  const mismatch = await roundTrips(() => send('rt-lt1', other, '/v1/ledger-transactions'));
  console.log({ ledgerTransaction: first, replay, mismatch });
  expect(first).toEqual(['TransactWriteItemsCommand']);
  expect(replay).toEqual(['TransactWriteItemsCommand']);
  expect(mismatch).toEqual(['TransactWriteItemsCommand']);
});

it('costs one read of the original and one write to reverse it, or to close an account (§16, §17)', async () => {
  const open = async (key: string) =>
    JSON.parse((await send(key, { currency: 'EUR' })).body).id as string;
  const [a, b] = [await open('rt-r-a'), await open('rt-r-b')];
  const credited = await send(
    'rt-r-credit',
    { type: 'credit', amount: 100, currency: 'EUR' },
    `/v1/accounts/${a}/transactions`,
  );
  const entryId = JSON.parse(credited.body).id as string;
  const reverseEntry = await roundTrips(() =>
    send('rt-r1', { amount: 10 }, `/v1/accounts/${a}/transactions/${entryId}/reversals`),
  );
  const transfer = await send(
    'rt-r-t',
    { fromAccountId: a, toAccountId: b, amount: 50, currency: 'EUR' },
    '/v1/transfers',
  );
  const transferId = JSON.parse(transfer.body).id as string;
  const reverseTransfer = await roundTrips(() =>
    send('rt-r2', {}, `/v1/transfers/${transferId}/reversals`),
  );
  const empty = await open('rt-r-empty');
  const close = await roundTrips(() => send('rt-r3', {}, `/v1/accounts/${empty}/close`));
  console.log({ reverseEntry, reverseTransfer, close });
  // The entry's pointer and its account in ONE BatchGetItem.
  expect(reverseEntry).toEqual(['BatchGetItemCommand', 'TransactWriteItemsCommand']);
  expect(reverseTransfer).toEqual(['GetItemCommand', 'TransactWriteItemsCommand']);
  expect(close).toEqual(['GetItemCommand', 'TransactWriteItemsCommand']);
});

it('costs two round trips to read a journal page or as-of balances (docs/contract.md §15)', async () => {
  const account = JSON.parse((await send('rt-j', { currency: 'EUR' })).body).id as string;
  const get = (path: string, query: Record<string, string>) =>
    app(httpEvent('GET', `/v1/accounts/${account}/${path}`, { principal: 'carol', query }));
  const page = await roundTrips(() => get('journal', { afterSequence: '0' }));
  const asOf = await roundTrips(() => get('balances', { asOf: new Date().toISOString() }));
  const past = await roundTrips(() => get('balances', { asOf: '2020-01-01T00:00:00Z' }));
  expect(page).toEqual(['GetItemCommand', 'QueryCommand']);
  expect(asOf).toEqual(['GetItemCommand', 'QueryCommand']);
  expect(past).toEqual(['GetItemCommand', 'QueryCommand']);
});
