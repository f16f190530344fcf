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
import { testConfig } from '../../support/config';
import { createTestTable } from '../../support/dynamo';
import { bodyOf, ledgerApi } from '../../support/ledger-api';

/**
 * docs/contract.md §25 "A concurrent copy of a batch", on DynamoDB Local: an independent batch
 * holds a lease of its key while its operations run; a copy sent meanwhile answers
 * `409 idempotency_key_in_use`, and a crashed holder's lease expires.
 */

let client: DynamoDBClient;
let tableName: string;
let drop: () => Promise<void>;
let app: HttpHandler;
let api: ReturnType<typeof ledgerApi>;
/** Set by a test: the next TransactWriteItems waits for it (a copy caught mid-batch). */
let gate: { reached: () => void; opened: Promise<void> } | undefined;

beforeAll(async () => {
  ({ client, tableName, drop } = await createTestTable());
  client.middlewareStack.add(
    (next) => async (args) => {
      const held = gate;
      if (held && (args.input as { TransactItems?: unknown }).TransactItems) {
        gate = undefined;
        held.reached();
        await held.opened;
      }
      return next(args);
    },
    { step: 'initialize', name: 'holdOneTransaction' },
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
    let reached = () => {};
    let open = () => {};
    const caught = new Promise<void>((resolve) => {
      reached = resolve;
    });
    gate = { reached, opened: new Promise((resolve) => (open = resolve)) };
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
