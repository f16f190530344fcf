import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpResult } from '../../../functions/api/types';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { Problem } from '../../../functions/schemas/shared';
import { APP, callbackBody, SECRET, signedCallback } from '../../support/callbacks';
import { testConfig } from '../../support/config';
import { createTestTable } from '../../support/dynamo';
import { bodyOf, ledgerApi } from '../../support/ledger-api';

/**
 * Idempotency before stored-state limits (docs/contract.md §4): a key already used with another
 * request answers `422 idempotency_key_reused` before any refusal that depends on what is
 * stored — a capture above its hold (`400`), a hold, account or task of someone else (`404`).
 * An unused key still gets that refusal, unrecorded, so a corrected retry goes ahead.
 */

let drop: () => Promise<void>;
let api: ReturnType<typeof ledgerApi>;
let app: Parameters<typeof ledgerApi>[0];

beforeAll(async () => {
  const table = await createTestTable();
  drop = table.drop;
  app = composeHttpHandler({
    dynamo: table.client,
    config: testConfig({ tableName: table.tableName, callbackApplicationId: APP }),
    callbackSecrets: staticCallbackSecrets(JSON.stringify({ [APP]: [SECRET] })),
  });
  api = ledgerApi(app);
});
afterAll(() => drop());

const codeOf = (res: HttpResult) => Problem.parse(JSON.parse(res.body)).code;
const holdOn = async (accountId: string, amount: number, as = 'alice') => {
  const res = await api.post(
    `/v1/accounts/${accountId}/holds`,
    { amount, currency: 'EUR', expiresInSeconds: 600 },
    randomUUID(),
    as,
  );
  expect(res.statusCode, res.body).toBe(201);
  return String(bodyOf(res).id);
};
const capture = (holdId: string, body: Record<string, unknown>, key: string, as = 'alice') =>
  api.post(`/v1/holds/${holdId}/captures`, body, key, as);

/** A task of `as` whose current execution FAILED, so it may be rerun. */
async function failedTask(as: string): Promise<string> {
  const account = await api.account(1_000, 'EUR', as);
  const res = await api.post(
    `/v1/accounts/${account}/exports`,
    { format: 'csv' },
    randomUUID(),
    as,
  );
  const task = bodyOf(res);
  const executionId = String(task.currentExecutionId);
  const failed = await app(
    signedCallback(callbackBody({ executionId, sequence: 1, status: 'FAILED' })),
  );
  expect(failed.statusCode).toBe(200);
  return String(task.id);
}

describe('a capture whose key was used with another body', () => {
  it('answers 422 idempotency_key_reused whatever its amount, and moves nothing', async () => {
    const account = await api.account(1_000);
    const hold = await holdOn(account, 300);
    const key = randomUUID();
    expect((await capture(hold, { amount: 100 }, key)).statusCode).toBe(200);
    const before = await api.money(account);

    const above = await capture(hold, { amount: 301 }, key);
    expect(above.statusCode, above.body).toBe(422);
    expect(codeOf(above)).toBe('idempotency_key_reused');
    expect(codeOf(await capture(hold, { amount: 200 }, key))).toBe('idempotency_key_reused');
    expect(await api.money(account)).toEqual(before);
    // The same request still replays.
    const replay = await capture(hold, { amount: 100 }, key);
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  it('answers 422 for a key first used on another hold, before the amount is judged', async () => {
    const account = await api.account(1_000);
    const [first, second] = [await holdOn(account, 100), await holdOn(account, 50)];
    const key = randomUUID();
    expect((await capture(first, { amount: 100 }, key)).statusCode).toBe(200);
    expect(codeOf(await capture(second, { amount: 80 }, key))).toBe('idempotency_key_reused');
  });

  it('still answers 400 validation_failed with an unused key, unrecorded', async () => {
    const account = await api.account(1_000);
    const hold = await holdOn(account, 300);
    const key = randomUUID();
    expect(codeOf(await capture(hold, { amount: 301 }, key))).toBe('validation_failed');
    expect((await capture(hold, { amount: 300 }, key)).statusCode).toBe(200);
  });
});

describe('refusals of what someone else owns (404) come after the key check', () => {
  it("captures and voids: a reused key on another owner's hold is 422, a new key 404", async () => {
    const mine = await holdOn(await api.account(1_000), 100);
    const theirs = await holdOn(await api.account(1_000, 'EUR', 'bob'), 100, 'bob');
    const key = randomUUID();
    expect((await capture(mine, {}, key)).statusCode).toBe(200);
    expect(codeOf(await capture(theirs, {}, key))).toBe('idempotency_key_reused');
    expect(codeOf(await capture(theirs, {}, randomUUID()))).toBe('not_found');

    const voidKey = randomUUID();
    const other = await holdOn(await api.account(1_000), 100);
    expect((await api.post(`/v1/holds/${other}/voids`, {}, voidKey)).statusCode).toBe(200);
    expect(codeOf(await api.post(`/v1/holds/${theirs}/voids`, {}, voidKey))).toBe(
      'idempotency_key_reused',
    );
    // Bob's hold is untouched.
    const held = await api.get(`/v1/holds/${theirs}`, 'bob');
    expect(bodyOf(held).status).toBe('active');
  });

  it("exports: a reused key on another owner's account is 422, and no fee is charged", async () => {
    const mine = await api.account(1_000);
    const theirs = await api.account(1_000, 'EUR', 'bob');
    const key = randomUUID();
    const first = await api.post(`/v1/accounts/${mine}/exports`, { format: 'csv' }, key);
    expect(first.statusCode).toBe(202);
    const reused = await api.post(`/v1/accounts/${theirs}/exports`, { format: 'csv' }, key);
    expect(codeOf(reused)).toBe('idempotency_key_reused');
    expect(await api.money(theirs, 'bob')).toEqual({ balance: 1_000, available: 1_000 });
    const unused = await api.post(`/v1/accounts/${theirs}/exports`, { format: 'csv' });
    expect(codeOf(unused)).toBe('not_found');
  });

  it("reruns: a reused key on another owner's task is 422, a new key 404", async () => {
    const mine = await failedTask('alice');
    const theirs = await failedTask('bob');
    const key = randomUUID();
    expect((await api.post(`/v1/tasks/${mine}/reruns`, {}, key)).statusCode).toBe(202);
    expect(codeOf(await api.post(`/v1/tasks/${theirs}/reruns`, {}, key))).toBe(
      'idempotency_key_reused',
    );
    expect(codeOf(await api.post(`/v1/tasks/${theirs}/reruns`, {}))).toBe('not_found');
  });
});
