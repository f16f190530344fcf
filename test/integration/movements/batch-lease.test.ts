import { randomUUID } from 'node:crypto';
import { type DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpHandler } from '../../../functions/api/types';
import { idempotencyScopeId } from '../../../functions/domain/idempotency/fingerprint';
import { OPERATION_IDS } from '../../../functions/domain/idempotency/operations';
import { createBatchStore } from '../../../functions/dynamodb/batches/store';
import { keys } from '../../../functions/dynamodb/table/keys';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import { Batch } from '../../../functions/schemas/batches';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { httpEvent } from '../../../kit/http-event';
import { testConfig } from '../../support/config';
import { createTestTable } from '../../support/dynamo';
import { bodyOf, ledgerApi } from '../../support/ledger-api';

/**
 * docs/contract.md §25 "A concurrent copy of a batch", on DynamoDB Local: an independent batch
 * holds a lease of its key while its operations run; a copy sent meanwhile answers
 * `409 idempotency_key_in_use`, and a crashed holder's lease expires. Issue 43 item 2, black
 * box through the HTTP function as composed: the deadline and the lease come from the Lambda
 * context's remaining time (§25, §36), and no operation's result is a 5xx but `503` (§31).
 */

let client: DynamoDBClient;
let tableName: string;
let drop: () => Promise<void>;
let app: HttpHandler;
let api: ReturnType<typeof ledgerApi>;
/** Set by a test: what every TransactWriteItems meets before it is sent. */
let intercept: ((items: readonly Record<string, unknown>[]) => Promise<void>) | undefined;

beforeAll(async () => {
  ({ client, tableName, drop } = await createTestTable());
  client.middlewareStack.add(
    (next) => async (args) => {
      const items = (args.input as { TransactItems?: Record<string, unknown>[] }).TransactItems;
      if (items && intercept) await intercept(items);
      return next(args);
    },
    { step: 'initialize', name: 'interceptTransactions' },
  );
  app = composeHttpHandler({
    dynamo: client,
    config: { ...testConfig({ tableName }), idempotencyLocalCache: false },
    callbackSecrets: staticCallbackSecrets('{}'),
  });
  api = ledgerApi(app);
});
afterAll(() => drop());

const posting = (type: 'credit' | 'debit', accountId: string, amount: number) => ({
  key: randomUUID(),
  op: type,
  accountId,
  body: { type, amount, currency: 'EUR' },
});
const leaseOf = async (batchKey: string) => {
  const scope = idempotencyScopeId('alice', OPERATION_IDS.createBatch, batchKey);
  const { Item } = await client.send(
    new GetItemCommand({
      TableName: tableName,
      Key: marshall(keys.batchLease(scope)),
      ConsistentRead: true,
    }),
  );
  return Item;
};
/** Holds the next TransactWriteItems until `open()`: a copy is caught mid-batch. */
function holdNextTransaction() {
  let reached = () => {};
  let open = () => {};
  const caught = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  intercept = async () => {
    intercept = undefined;
    reached();
    await opened;
  };
  return { caught, open };
}

/** A batch sent as the Lambda runtime sends it: with `remainingMs` left to the function. */
const batchWithin = (remainingMs: number, body: unknown, batchKey = randomUUID()) =>
  app(httpEvent('POST', '/v1/batches', { principal: 'alice', idempotencyKey: batchKey, body }), {
    getRemainingTimeInMillis: () => remainingMs,
  });

const outcomes = (res: { body: string }) =>
  Batch.parse(JSON.parse(res.body)).results.map((r) => {
    const body = r.body as { code?: string };
    return body.code ? `${r.status} ${body.code}` : String(r.status);
  });

describe('two copies of one independent batch sent at once', () => {
  it('run its operations once, in request order: the copy sent meanwhile answers in_use', async () => {
    const account = await api.account();
    const body = {
      mode: 'independent',
      operations: [
        posting('debit', account, 41),
        posting('credit', account, 48),
        posting('credit', account, 1),
      ],
    };
    const batchKey = randomUUID();
    const { caught, open } = holdNextTransaction();
    const first = api.post('/v1/batches', body, batchKey);
    await caught;
    // The first copy holds the key, its operations not written yet.
    const asked = Date.now();
    const second = await api.post('/v1/batches', body, batchKey);
    const held = { expiresAtMs: Number((await leaseOf(batchKey))?.expiresAtMs?.N) };
    open();
    expect(second.statusCode).toBe(409);
    expect(bodyOf(second).code).toBe('idempotency_key_in_use');
    // Retry-After: the held lease's remaining seconds, rounded up (docs/contract.md §25).
    const retryAfter = Number(second.headers['retry-after']);
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil((held.expiresAtMs - asked) / 1000));
    expect(retryAfter).toBeGreaterThanOrEqual(Math.ceil((held.expiresAtMs - Date.now()) / 1000));
    expect(retryAfter).toBeGreaterThan(1);

    const answered = await first;
    expect(answered.statusCode).toBe(200);
    // The debit came first, on an empty account: refused, whatever the credits after it did.
    expect(outcomes(answered)).toEqual(['409 insufficient_funds', '201', '201']);
    expect(await api.money(account)).toEqual({ balance: 49, available: 49 });
    expect(await leaseOf(batchKey)).toBeUndefined();

    const retried = await api.post('/v1/batches', body, batchKey);
    expect(retried.body).toBe(answered.body);
    expect(retried.headers['idempotent-replayed']).toBe('true');
  });
});

describe('a lease left by a holder that crashed', () => {
  /** A short lease in place of a real one's 20 s: what matters is that it ends by itself. */
  const LEASE_MS = 2_000;

  it('refuses the batch while live, and a retry once it expired runs the batch', async () => {
    const account = await api.account();
    const done = posting('credit', account, 5);
    const body = { mode: 'independent', operations: [done, posting('debit', account, 3)] };
    const batchKey = randomUUID();
    // The crashed holder took the lease and applied its first operation, then died.
    const scopeId = idempotencyScopeId('alice', OPERATION_IDS.createBatch, batchKey);
    const store = createBatchStore({ client, tableName });
    const crashed = { scopeId, token: 'crashed', expiresAtMs: Date.now() + LEASE_MS };
    expect(await store.takeLease(crashed, Date.now())).toEqual({ kind: 'taken' });
    const applied = await api.post(`/v1/accounts/${account}/transactions`, done.body, done.key);
    expect(applied.statusCode).toBe(201);

    const refused = await api.post('/v1/batches', body, batchKey);
    expect(refused.statusCode).toBe(409);
    expect(bodyOf(refused).code).toBe('idempotency_key_in_use');
    expect(Date.now()).toBeLessThan(crashed.expiresAtMs);

    await new Promise((resolve) => setTimeout(resolve, crashed.expiresAtMs - Date.now() + 50));
    const ran = await api.post('/v1/batches', body, batchKey);
    expect(ran.statusCode).toBe(200);
    const results = Batch.parse(JSON.parse(ran.body)).results;
    expect(results.map((r) => [r.status, r.replayed ?? false])).toEqual([
      [201, true],
      [201, false],
    ]);
    expect(await api.money(account)).toEqual({ balance: 2, available: 2 });
    // The retry's own lease is gone with its answer; the crashed one's was taken over.
    expect(await leaseOf(batchKey)).toBeUndefined();
  });
});

/** Whether a transaction updates the account item of `accountId`. */
const updatesAccount = (items: readonly Record<string, unknown>[], accountId: string) =>
  items.some((item) => {
    const key = (item.Update as { Key?: { pk?: { S?: string } } } | undefined)?.Key;
    return key?.pk?.S === `ACCOUNT#${accountId}`;
  });

describe("a batch's deadline comes from the function's remaining time (§25)", () => {
  it('with less time left than the answer needs, no operation starts: each answers 503', async () => {
    const account = await api.account(10);
    const operations = [posting('credit', account, 5), posting('debit', account, 3)];
    // 1 s left: less than the 1.5 s kept for the answer, so the deadline has already passed.
    const late = await batchWithin(1_000, { mode: 'independent', operations });
    expect(late.statusCode).toBe(200);
    expect(outcomes(late)).toEqual(['503 unavailable', '503 unavailable']);
    expect(await api.money(account)).toEqual({ balance: 10, available: 10 });
    // Nothing was recorded under the operations' keys: sent again with time, they apply.
    const again = await batchWithin(8_000, { mode: 'independent', operations });
    expect(outcomes(again)).toEqual(['201', '201']);
    expect(await api.money(account)).toEqual({ balance: 12, available: 12 });
  });

  it('the lease lasts as long as the invocation: Retry-After from the remaining time', async () => {
    const account = await api.account();
    const body = { mode: 'independent', operations: [posting('credit', account, 1)] };
    const batchKey = randomUUID();
    const { caught, open } = holdNextTransaction();
    const asked = Date.now();
    // 4 s left to the holder, against the 10 s of a whole invocation.
    const first = batchWithin(4_000, body, batchKey);
    await caught;
    const copy = await batchWithin(8_000, body, batchKey);
    const held = Number((await leaseOf(batchKey))?.expiresAtMs?.N);
    open();
    expect([copy.statusCode, bodyOf(copy).code]).toEqual([409, 'idempotency_key_in_use']);
    expect(held).toBeGreaterThanOrEqual(asked + 4_000);
    expect(held).toBeLessThanOrEqual(Date.now() + 4_000);
    expect(Number(copy.headers['retry-after'])).toBeLessThanOrEqual(4);
    expect(outcomes(await first)).toEqual(['201']);
    expect(await leaseOf(batchKey)).toBeUndefined();
  });
});

describe("no 5xx is an operation's result but 503 (§31)", () => {
  it('an operation whose write fails unexpectedly answers 503; alone, under its key, it applies', async () => {
    const [a, b] = [await api.account(), await api.account()];
    const failing = posting('credit', a, 7);
    const operations = [failing, posting('credit', b, 2)];
    intercept = async (items) => {
      // Not an SDK error: the store reads it as a 500, which the single route records nowhere.
      if (updatesAccount(items, a)) throw new Error('a write that breaks unexpectedly');
    };
    const batchKey = randomUUID();
    const answered = await batchWithin(8_000, { mode: 'independent', operations }, batchKey);
    intercept = undefined;
    expect(answered.statusCode).toBe(200);
    expect(outcomes(answered)).toEqual(['503 unavailable', '201']);
    expect(await api.money(a)).toEqual({ balance: 0, available: 0 });
    // The batch replays its answer; the operation's own key holds nothing, so it applies.
    const replayed = await batchWithin(8_000, { mode: 'independent', operations }, batchKey);
    expect(replayed.body).toBe(answered.body);
    const alone = await api.post(`/v1/accounts/${a}/transactions`, failing.body, failing.key);
    expect(alone.statusCode).toBe(201);
    expect(await api.money(a)).toEqual({ balance: 7, available: 7 });
  });
});
