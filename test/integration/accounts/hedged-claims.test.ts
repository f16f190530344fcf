import { type DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { HttpHandler } from '../../../functions/api/types';
import type { HedgedReadSetting } from '../../../functions/contract/hedged-read';
import { idempotencyScopeId } from '../../../functions/domain/idempotency/fingerprint';
import { OPERATION_IDS } from '../../../functions/domain/idempotency/operations';
import { epochSeconds } from '../../../functions/domain/shared/time';
import { keys } from '../../../functions/dynamodb/table/keys';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { httpEvent } from '../../../kit/http-event';
import { testConfig } from '../../support/config';
import { createTestTable } from '../../support/dynamo';

/**
 * The hedged claim read on DynamoDB Local (docs/contract.md §4, §36): the client can hold a
 * transaction's answer after DynamoDB committed or cancelled it, and delay the claim read, so
 * which of the two answers first is the test's choice.
 */
let client: DynamoDBClient;
let drop: () => Promise<void>;
let tableName: string;
let app: HttpHandler;
let plainApp: HttpHandler;
let adaptiveApp: () => HttpHandler;
const commands: string[] = [];
let holdTransactions: Promise<void> | undefined;
let readDelayMs = 0;

beforeAll(async () => {
  ({ client, drop, tableName } = await createTestTable());
  client.middlewareStack.add(
    (next, context) => async (args) => {
      commands.push(String(context.commandName));
      if (context.commandName === 'GetItemCommand' && readDelayMs > 0) {
        await new Promise((resolve) => setTimeout(resolve, readDelayMs));
      }
      const out = await next(args);
      if (context.commandName === 'TransactWriteItemsCommand') await holdTransactions;
      return out;
    },
    { step: 'initialize', name: 'holdTransactionAnswers' },
  );
  const compose = (idempotencyHedgedRead: HedgedReadSetting) =>
    composeHttpHandler({
      dynamo: client,
      config: testConfig({ tableName, idempotencyLocalCache: false, idempotencyHedgedRead }),
      callbackSecrets: staticCallbackSecrets('{}'),
    });
  app = compose('always');
  plainApp = compose('off');
  adaptiveApp = () => compose('adaptive');
});

afterAll(() => drop());

beforeEach(() => {
  holdTransactions = undefined;
  readDelayMs = 0;
});

/** Holds every transaction's answer (after DynamoDB decided it) until the returned release. */
function hold(): () => void {
  let release = () => {};
  holdTransactions = new Promise((resolve) => {
    release = resolve;
  });
  return () => {
    holdTransactions = undefined;
    release();
  };
}

const send = (key: string, body: unknown, path: string, via = app) =>
  via(httpEvent('POST', path, { principal: 'hedge', idempotencyKey: key, body }));

async function openAccount(key: string, funds = 0): Promise<string> {
  const id = JSON.parse((await send(key, { currency: 'EUR' }, '/v1/accounts')).body).id as string;
  if (funds > 0) await send(`${key}-fund`, credit(funds), transactions(id));
  return id;
}
const transactions = (accountId: string) => `/v1/accounts/${accountId}/transactions`;
const credit = (amount: number) => ({ type: 'credit', amount, currency: 'EUR' });

async function balance(accountId: string): Promise<number> {
  const res = await app(httpEvent('GET', `/v1/accounts/${accountId}`, { principal: 'hedge' }));
  return JSON.parse(res.body).balance as number;
}

async function counted<T>(run: () => Promise<T>): Promise<{ calls: string[]; result: T }> {
  commands.length = 0;
  const result = await run();
  return { calls: [...commands].sort(), result };
}

it('sends the transaction and the claim read side by side, for a first request and a replay', async () => {
  const id = await openAccount('h-cost');
  const first = await counted(() => send('h-cost-1', credit(10), transactions(id)));
  const replay = await counted(() => send('h-cost-1', credit(10), transactions(id)));
  const both = ['GetItemCommand', 'TransactWriteItemsCommand'];
  expect(first.calls).toEqual(both);
  expect(replay.calls).toEqual(both);
  expect(replay.result.body).toBe(first.result.body);
  expect(replay.result.headers['idempotent-replayed']).toBe('true');
});

it('answers a replay and a mismatch from the read while their transactions are held', async () => {
  const id = await openAccount('h-race', 0);
  const first = await send('h-race-1', credit(10), transactions(id));
  const release = hold();
  try {
    const replay = await send('h-race-1', credit(10), transactions(id));
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(first.body);
    const mismatch = await send('h-race-1', credit(11), transactions(id));
    expect(mismatch.statusCode).toBe(422);
    expect(JSON.parse(mismatch.body)).toMatchObject({ code: 'idempotency_key_reused' });
  } finally {
    release();
  }
  expect(await balance(id)).toBe(10);
});

it("finds the attempt's own claim after its commit and answers it as the first response", async () => {
  const id = await openAccount('h-own');
  const release = hold();
  readDelayMs = 150; // lands after the transaction committed; its answer is held
  try {
    const first = await send('h-own-1', credit(25), transactions(id));
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
  } finally {
    release();
  }
  readDelayMs = 0;
  const claim = await client.send(
    new GetItemCommand({
      TableName: tableName,
      Key: marshall(
        keys.idempotency(idempotencyScopeId('hedge', OPERATION_IDS.postTransaction, 'h-own-1')),
      ),
    }),
  );
  expect(unmarshall(claim.Item ?? {}).writer).toMatch(/^[0-9a-f-]{36}$/);
  expect(await balance(id)).toBe(25);
});

it('never answers from the read when the transaction did not commit: a refusal is the answer', async () => {
  const id = await openAccount('h-refused', 5);
  const debit = { type: 'debit', amount: 50, currency: 'EUR' };
  const refused = await send('h-refused-1', debit, transactions(id));
  expect(JSON.parse(refused.body)).toMatchObject({ code: 'insufficient_funds' });
  expect(refused.headers['idempotent-replayed']).toBeUndefined();
  // The refusal was recorded: its retry replays it (found by the read), nothing moved.
  const again = await send('h-refused-1', debit, transactions(id));
  expect(again.headers['idempotent-replayed']).toBe('true');
  expect(again.body).toBe(refused.body);
  expect(await balance(id)).toBe(5);
});

it('treats an expired claim as no claim, like the write condition does', async () => {
  const id = await openAccount('h-expired');
  const scopeId = idempotencyScopeId('hedge', OPERATION_IDS.postTransaction, 'h-expired-1');
  await client.send(
    new PutItemCommand({
      TableName: tableName,
      Item: marshall({
        ...keys.idempotency(scopeId),
        fingerprint: 'an-old-request',
        statusCode: 201,
        body: '{"old":true}',
        expiresAt: epochSeconds() - 10,
        writer: 'an-old-attempt',
      }),
    }),
  );
  const fresh = await send('h-expired-1', credit(7), transactions(id));
  expect(fresh.statusCode).toBe(201);
  expect(fresh.headers['idempotent-replayed']).toBeUndefined();
  expect(await balance(id)).toBe(7);
});

it('with IDEMPOTENCY_HEDGED_READ=off, a request costs its transaction only', async () => {
  const id = await openAccount('h-off');
  const first = await counted(() => send('h-off-1', credit(3), transactions(id), plainApp));
  const replay = await counted(() => send('h-off-1', credit(3), transactions(id), plainApp));
  expect(first.calls).toEqual(['TransactWriteItemsCommand']);
  expect(replay.calls).toEqual(['TransactWriteItemsCommand']);
  expect(replay.result.headers['idempotent-replayed']).toBe('true');
});

it('adaptive (the default): no read until a replay, then the read first, then none again', async () => {
  const adaptive = adaptiveApp();
  const id = await openAccount('h-adapt');
  const call = (key: string, amount: number) =>
    counted(() => send(key, credit(amount), transactions(id), adaptive));
  const tx = ['TransactWriteItemsCommand'];
  expect((await call('h-adapt-1', 4)).calls).toEqual(tx);
  const replay = await call('h-adapt-1', 4); // answered by its cancelled transaction
  expect(replay.calls).toEqual(tx);
  expect(replay.result.headers['idempotent-replayed']).toBe('true');
  // Half the instance's recent writes were replays: the read goes first, no transaction.
  const next = await call('h-adapt-1', 4);
  expect(next.calls).toEqual(['GetItemCommand']);
  expect(next.result.body).toBe(replay.result.body);
  const mismatch = await call('h-adapt-1', 5);
  expect(mismatch.calls).toEqual(['GetItemCommand']);
  expect(mismatch.result.statusCode).toBe(422);
  // First requests read (first, then beside) until 32 writes without a replay passed.
  for (let i = 0; i < 32; i++) {
    const first = await call(`h-adapt-n${i}`, 1);
    expect(first.result.statusCode).toBe(201);
    expect(first.calls).toEqual(['GetItemCommand', 'TransactWriteItemsCommand']);
  }
  expect((await call('h-adapt-last', 1)).calls).toEqual(tx);
  expect(await balance(id)).toBe(4 + 32 + 1);
});
