import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiResponse,
  apiClient,
  groupAlive,
  ISO_TIME,
  type LocalStack,
  portAnswers,
  startLocalStack,
} from './support/stack';

/**
 * Starts the local stack the way a newcomer does (`npm start` = tsx local/start.ts) and talks
 * to it over HTTP like curl would: contract §2–§5 against real DynamoDB Local.
 */

const RETENTION_SECONDS = 3_600;
/** Distinctive, so a leak of the table name into a response is easy to spot. */
const TABLE_NAME = 'e2e-ledger-table';

let stack: LocalStack;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  stack = await startLocalStack({
    TABLE_NAME,
    IDEMPOTENCY_RETENTION_SECONDS: String(RETENTION_SECONDS),
  });
  api = apiClient(stack.base);
});

afterAll(() => {
  // Safety net only: the last test stops the stack with SIGINT and checks it cleaned up.
  stack?.kill();
});

function expectProblem(res: ApiResponse, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.json).toMatchObject({
    type: expect.any(String),
    title: expect.any(String),
    status,
    detail: expect.any(String),
    code,
  });
  expect(res.text).not.toMatch(/\n\s+at |Exception/);
  expect(res.text).not.toContain(TABLE_NAME);
}

describe('local stack over HTTP', () => {
  const alice = 'alice';
  const credit = { type: 'credit', amount: 2_500, currency: 'EUR', reference: 'top-up' };

  /** A new EUR account of alice's: each test arranges its own, so none depends on another. */
  async function newAccount(): Promise<string> {
    const res = await api('POST', '/v1/accounts', {
      principal: alice,
      key: randomUUID(),
      body: { currency: 'EUR' },
    });
    expect(res.status).toBe(201);
    return String(res.json.id);
  }

  /** A new account credited once with `credit` under `key`. */
  async function creditedAccount(key: string): Promise<string> {
    const accountId = await newAccount();
    const res = await api('POST', `/v1/accounts/${accountId}/transactions`, {
      principal: alice,
      key,
      body: credit,
    });
    expect(res.status).toBe(201);
    return accountId;
  }

  it('serves the OpenAPI document without a principal, with the configured retention', async () => {
    const res = await api('GET', '/v1/openapi.json');

    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      openapi: expect.stringMatching(/^3\.1/),
      info: { 'x-idempotency-retention-seconds': RETENTION_SECONDS },
    });
  });

  it('creates an account (201)', async () => {
    const res = await api('POST', '/v1/accounts', {
      principal: alice,
      key: 'e2e-account-1',
      body: { currency: 'EUR', name: 'Alice' },
    });

    expect(res.status).toBe(201);
    expect(res.json).toEqual({
      id: expect.any(String),
      currency: 'EUR',
      balance: 0,
      available: 0,
      name: 'Alice',
      createdAt: expect.stringMatching(ISO_TIME),
      updatedAt: expect.stringMatching(ISO_TIME),
    });
  });

  it('credits once and replays the same key byte for byte', async () => {
    const accountId = await newAccount();
    const path = `/v1/accounts/${accountId}/transactions`;
    const first = await api('POST', path, { principal: alice, key: 'e2e-credit-1', body: credit });
    const again = await api('POST', path, { principal: alice, key: 'e2e-credit-1', body: credit });

    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(first.json).toEqual({
      id: expect.any(String),
      accountId,
      type: 'credit',
      amount: 2_500,
      currency: 'EUR',
      reference: 'top-up',
      origin: 'http',
      createdAt: expect.stringMatching(ISO_TIME),
    });
    expect(again.status).toBe(first.status);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('rejects the same key with a different amount (422 idempotency_key_reused)', async () => {
    const key = randomUUID();
    const accountId = await creditedAccount(key);
    const res = await api('POST', `/v1/accounts/${accountId}/transactions`, {
      principal: alice,
      key,
      body: { ...credit, amount: 9_999 },
    });

    expectProblem(res, 422, 'idempotency_key_reused');
  });

  it('rejects a debit larger than the balance (409 insufficient_funds)', async () => {
    const accountId = await creditedAccount(randomUUID());
    const res = await api('POST', `/v1/accounts/${accountId}/transactions`, {
      principal: alice,
      key: 'e2e-debit-too-much',
      body: { type: 'debit', amount: 1_000_000, currency: 'EUR' },
    });

    expectProblem(res, 409, 'insufficient_funds');
  });

  it('shows the balance changed exactly once', async () => {
    const accountId = await creditedAccount('e2e-credit-once');
    const retry = await api('POST', `/v1/accounts/${accountId}/transactions`, {
      principal: alice,
      key: 'e2e-credit-once',
      body: credit,
    });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');

    const res = await api('GET', `/v1/accounts/${accountId}`, { principal: alice });

    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: accountId, currency: 'EUR', balance: 2_500 });
  });

  it('lists transactions newest first', async () => {
    const accountId = await creditedAccount(randomUUID());
    const debit = await api('POST', `/v1/accounts/${accountId}/transactions`, {
      principal: alice,
      key: 'e2e-debit-1',
      body: { type: 'debit', amount: 500, currency: 'EUR' },
    });
    expect(debit.status).toBe(201);

    const res = await api('GET', `/v1/accounts/${accountId}/transactions?limit=10`, {
      principal: alice,
    });

    expect(res.status).toBe(200);
    const items = res.json.items as Array<Record<string, unknown>>;
    expect(items.map((t) => [t.type, t.amount, t.origin])).toEqual([
      ['debit', 500, 'http'],
      ['credit', 2_500, 'http'],
    ]);
    expect(items[0]?.id).toBe(debit.json.id);
    expect(res.json.nextCursor).toBeNull();
    const balance = await api('GET', `/v1/accounts/${accountId}`, { principal: alice });
    expect(balance.json.balance).toBe(2_000);
  });

  it('answers 401 without X-Principal-Id', async () => {
    const accountId = await newAccount();
    expectProblem(await api('GET', `/v1/accounts/${accountId}`), 401, 'unauthenticated');
  });

  it('answers 404 to another principal, for the account and everything under it', async () => {
    const accountId = await newAccount();
    const mallory = { principal: 'mallory' };

    expectProblem(await api('GET', `/v1/accounts/${accountId}`, mallory), 404, 'not_found');
    expectProblem(
      await api('GET', `/v1/accounts/${accountId}/transactions`, mallory),
      404,
      'not_found',
    );
    expectProblem(
      await api('POST', `/v1/accounts/${accountId}/transactions`, {
        ...mallory,
        key: 'e2e-mallory-1',
        body: credit,
      }),
      404,
      'not_found',
    );
  });

  // Last: it stops the stack the other tests share.
  it('stops on SIGINT: exits 0 and leaves no DynamoDB Local or SQS emulator behind', async () => {
    expect(await stack.interrupt()).toBe(0);
    expect(stack.output()).toMatch(/stopped DynamoDB Local/);
    expect(stack.output()).toMatch(/stopped SQS emulator/);
    await expect.poll(() => groupAlive(stack.pid), { timeout: 10_000 }).toBe(false);
    expect(await portAnswers(stack.dynamoPort)).toBe(false);
    expect(await portAnswers(stack.httpPort)).toBe(false);
    expect(await portAnswers(stack.sqsPort)).toBe(false);
  });
});
