import { randomUUID } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { silentLog } from '../../../functions/domain/shared/log';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import { composeSweeper } from '../../../functions/handlers/sweeper/compose';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { Hold, HoldPage } from '../../../functions/schemas/holds';
import { Problem } from '../../../functions/schemas/shared';
import { testConfig, testSweeper } from '../../support/config';
import { createTestTable } from '../../support/dynamo';
import { bodyOf, ledgerApi } from '../../support/ledger-api';

let client: DynamoDBClient;
let tableName: string;
let drop: () => Promise<void>;
let api: ReturnType<typeof ledgerApi>;
let now: Date;
beforeAll(async () => {
  ({ client, tableName, drop } = await createTestTable());
  const app = composeHttpHandler({
    dynamo: client,
    config: testConfig({ tableName }),
    callbackSecrets: staticCallbackSecrets('{}'),
    // Each request a millisecond later: entries and holds of one test sort by creation time.
    clock: () => {
      now = new Date(now.getTime() + 1);
      return now;
    },
  });
  api = ledgerApi(app);
});
afterAll(() => drop());
// Real time: DynamoDB Local's TTL sweeper deletes idempotency records in the real past.
beforeEach(() => {
  now = new Date();
});

const later = (seconds: number) => new Date(now.getTime() + seconds * 1000);
const codeOf = (res: { body: string }) => Problem.parse(JSON.parse(res.body)).code;
const place = (
  accountId: string,
  body: Record<string, unknown>,
  key: string = randomUUID(),
  as?: string,
) =>
  api.post(
    `/v1/accounts/${accountId}/holds`,
    { currency: 'EUR', expiresInSeconds: 600, ...body },
    key,
    as,
  );
const capture = (holdId: string, body: Record<string, unknown> = {}, key: string = randomUUID()) =>
  api.post(`/v1/holds/${holdId}/captures`, body, key);
const voidHold = (holdId: string, key: string = randomUUID()) =>
  api.post(`/v1/holds/${holdId}/voids`, {}, key);
const holdOf = (res: { body: string }) => Hold.parse(JSON.parse(res.body));

describe('placing a hold', () => {
  it('lowers available, not balance, and is readable and listed', async () => {
    const account = await api.account(1_000);
    const res = await place(account, { amount: 400, reference: 'card auth' });
    expect(res.statusCode).toBe(201);
    const hold = holdOf(res);
    expect(hold).toMatchObject({ status: 'active', capturedAmount: 0, amount: 400 });
    expect(hold.expiresAt).toBe(later(600).toISOString());
    expect(await api.money(account)).toEqual({ balance: 1_000, available: 600 });
    expect(JSON.parse((await api.get(`/v1/holds/${hold.id}`)).body)).toEqual(hold);
    expect((await api.get(`/v1/holds/${hold.id}`, 'mallory')).statusCode).toBe(404);
  });

  it('records insufficient_funds and currency_mismatch, and replays them', async () => {
    const account = await api.account(100);
    for (const [body, code] of [
      [{ amount: 101 }, 'insufficient_funds'],
      [{ amount: 10, currency: 'USD' }, 'currency_mismatch'],
    ] as const) {
      const key = randomUUID();
      const first = await place(account, body, key);
      expect(codeOf(first)).toBe(code);
      const replay = await place(account, body, key);
      expect(replay.body).toBe(first.body);
      expect(replay.headers['idempotent-replayed']).toBe('true');
    }
    expect(await api.money(account)).toEqual({ balance: 100, available: 100 });
  });

  it("answers 404 for another owner's account without recording it", async () => {
    const theirs = await api.account(100, 'EUR', 'bob');
    const key = randomUUID();
    expect((await place(theirs, { amount: 1 }, key)).statusCode).toBe(404);
    // Nothing was claimed: the same key now places a hold on an account of the caller.
    const mine = await api.account(100);
    expect((await place(mine, { amount: 1 }, key)).statusCode).toBe(201);
    expect(await api.money(theirs, 'bob')).toEqual({ balance: 100, available: 100 });
  });

  it('makes debits and export fees check the available balance', async () => {
    const account = await api.account(150);
    await place(account, { amount: 100 });
    const debit = { type: 'debit', amount: 60, currency: 'EUR' };
    const refused = await api.post(`/v1/accounts/${account}/transactions`, debit);
    expect(codeOf(refused)).toBe('insufficient_funds');
    await place(account, { amount: 40 });
    const fee = await api.post(`/v1/accounts/${account}/exports`, { format: 'csv' });
    expect(codeOf(fee)).toBe('insufficient_funds');
    expect(await api.money(account)).toEqual({ balance: 150, available: 10 });
  });
});

describe('capture and void', () => {
  it('captures part of a hold: it leaves the balance, the rest is available again', async () => {
    const account = await api.account(1_000);
    const hold = holdOf(await place(account, { amount: 400 }));
    const key = randomUUID();
    const res = await capture(hold.id, { amount: 150 }, key);
    expect(res.statusCode).toBe(200);
    expect(holdOf(res)).toMatchObject({ status: 'captured', capturedAmount: 150 });
    expect(await api.money(account)).toEqual({ balance: 850, available: 850 });
    const [entry] = await api.entries(account);
    expect(entry).toMatchObject({ type: 'capture', amount: 150, holdId: hold.id });

    const replay = await capture(hold.id, { amount: 150 }, key);
    expect(replay).toMatchObject({ statusCode: 200, body: res.body });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const again = await capture(hold.id, {});
    expect(codeOf(again)).toBe('hold_not_active');
    expect(await api.money(account)).toEqual({ balance: 850, available: 850 });
  });

  it('captures the whole hold by default and voids return all of it', async () => {
    const account = await api.account(500);
    const whole = holdOf(await place(account, { amount: 200 }));
    expect(holdOf(await capture(whole.id)).capturedAmount).toBe(200);
    const voided = holdOf(await place(account, { amount: 100 }));
    const res = await voidHold(voided.id);
    expect(holdOf(res)).toMatchObject({ status: 'voided', capturedAmount: 0 });
    expect(await api.money(account)).toEqual({ balance: 300, available: 300 });
    const key = randomUUID();
    const twice = await voidHold(voided.id, key);
    expect(codeOf(twice)).toBe('hold_not_active');
    expect((await voidHold(voided.id, key)).headers['idempotent-replayed']).toBe('true');
    expect(codeOf(await capture(voided.id))).toBe('hold_not_active');
  });

  it('refuses a capture above the hold with 400, unrecorded', async () => {
    const account = await api.account(500);
    const hold = holdOf(await place(account, { amount: 200 }));
    const key = randomUUID();
    expect(codeOf(await capture(hold.id, { amount: 201 }, key))).toBe('validation_failed');
    expect((await capture(hold.id, { amount: 200 }, key)).statusCode).toBe(200);
  });

  it('settles a hold once when two keys capture and void it at the same time', async () => {
    const account = await api.account(500);
    const hold = holdOf(await place(account, { amount: 300 }));
    const results = await Promise.all([
      capture(hold.id, { amount: 300 }),
      voidHold(hold.id),
      capture(hold.id, { amount: 100 }),
    ]);
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode !== 200).map(codeOf)).toEqual([
      'hold_not_active',
      'hold_not_active',
    ]);
    const { balance, available } = await api.money(account);
    expect(balance).toBe(available);
    expect([200, 400, 500]).toContain(balance);
  });

  it('refuses capture and void from expiresAt on with hold_expired, recorded, before any sweep', async () => {
    const account = await api.account(500);
    const hold = holdOf(await place(account, { amount: 100, expiresInSeconds: 30 }));
    now = later(30);
    const key = randomUUID();
    const late = await capture(hold.id, {}, key);
    expect(late.statusCode).toBe(409);
    expect(codeOf(late)).toBe('hold_expired');
    expect((await capture(hold.id, {}, key)).headers['idempotent-replayed']).toBe('true');
    expect(codeOf(await voidHold(hold.id))).toBe('hold_expired');
    expect(holdOf(await api.get(`/v1/holds/${hold.id}`)).status).toBe('expired');
    // Not swept yet: the money is still held.
    expect(await api.money(account)).toEqual({ balance: 500, available: 400 });

    await composeSweeper({
      dynamo: client,
      ...testSweeper({ tableName }),
      clock: () => now,
      log: silentLog,
    })();
    expect(await api.money(account)).toEqual({ balance: 500, available: 500 });
    expect(codeOf(await capture(hold.id))).toBe('hold_expired');
  });
});

describe('GET /v1/accounts/{accountId}/holds', () => {
  it('lists newest first, filters by status as of now, and pages with a cursor', async () => {
    const account = await api.account(1_000);
    const ids: string[] = [];
    for (const amount of [10, 20, 30, 40, 50]) {
      ids.push(holdOf(await place(account, { amount, expiresInSeconds: amount })).id);
    }
    await capture(ids[0] ?? '');
    await voidHold(ids[1] ?? '');
    now = later(35); // the 30-second hold has expired; 40 and 50 are still active

    const list = async (query: Record<string, string>) =>
      HoldPage.parse(
        JSON.parse((await api.get(`/v1/accounts/${account}/holds`, undefined, query)).body),
      );
    expect((await list({})).items.map((h) => h.id)).toEqual([...ids].reverse());
    expect((await list({ status: 'active' })).items.map((h) => h.amount)).toEqual([50, 40]);
    expect((await list({ status: 'expired' })).items.map((h) => h.amount)).toEqual([30]);
    expect((await list({ status: 'captured' })).items.map((h) => h.amount)).toEqual([10]);

    const first = await list({ limit: '2' });
    expect(first.items.map((h) => h.amount)).toEqual([50, 40]);
    const second = await list({ limit: '2', cursor: first.nextCursor ?? '' });
    expect(second.items.map((h) => h.amount)).toEqual([30, 20]);
    const third = await list({ limit: '2', cursor: second.nextCursor ?? '' });
    expect(third).toEqual({ items: [expect.objectContaining({ amount: 10 })], nextCursor: null });
    const filtered = await list({ status: 'active', limit: '1' });
    expect(filtered.items.map((h) => h.amount)).toEqual([50]);
    const rest = await list({ status: 'active', limit: '1', cursor: filtered.nextCursor ?? '' });
    expect(rest).toEqual({ items: [expect.objectContaining({ amount: 40 })], nextCursor: null });

    const bad = await api.get(`/v1/accounts/${account}/holds`, undefined, { status: 'gone' });
    expect(bad.statusCode).toBe(400);
    expect((await api.get(`/v1/accounts/${account}/holds`, 'mallory')).statusCode).toBe(404);
    expect(bodyOf(await api.get(`/v1/accounts/${account}`))).toMatchObject({ balance: 990 });
  });
});
