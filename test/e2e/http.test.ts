import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerClient } from '../../client/index';
import {
  clientFor,
  groupAlive,
  ISO_TIME,
  key,
  type LocalStack,
  portAnswers,
  startLocalStack,
} from './support/stack';

/**
 * Starts the local stack the way a newcomer does (`npm start` = node --import tsx local/start.ts) and talks
 * to it over HTTP with the typed client, as an application would: docs/contract.md §2–§5
 * against real DynamoDB Local.
 */

const RETENTION_SECONDS = 3_600;
/** Distinctive, so a leak of the table name into a response is easy to spot. */
const TABLE_NAME = 'e2e-ledger-table';

let stack: LocalStack;
/** Calls as alice, as mallory and with no identity. */
let alice: LedgerClient;
let mallory: LedgerClient;
let anonymous: LedgerClient;

beforeAll(async () => {
  stack = await startLocalStack(
    {
      TABLE_NAME,
      IDEMPOTENCY_RETENTION_SECONDS: String(RETENTION_SECONDS),
    },
    { dynamo: 'own' },
  ); // its last test checks that Ctrl-C stops the JVM too
  alice = clientFor(stack.base, 'alice');
  mallory = clientFor(stack.base, 'mallory');
  anonymous = clientFor(stack.base);
});

afterAll(() => {
  // Safety net only: the last test stops the stack with SIGINT and checks it cleaned up.
  stack?.kill();
});

function expectProblem(
  answer: { error?: unknown; response: Response },
  status: number,
  code: string,
) {
  expect(answer.response.status).toBe(status);
  expect(answer.response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(answer.error).toMatchObject({
    type: expect.any(String),
    title: expect.any(String),
    status,
    detail: expect.any(String),
    code,
  });
  const text = JSON.stringify(answer.error);
  expect(text).not.toMatch(/\\n\s+at |Exception/);
  expect(text).not.toContain(TABLE_NAME);
}

describe('local stack over HTTP', () => {
  const credit = { type: 'credit' as const, amount: 2_500, currency: 'EUR', reference: 'top-up' };

  /** POSTs a transaction as alice; answered as text, the exact bytes a replay must repeat. */
  const post = (accountId: string, idempotencyKey: string, body: typeof credit) =>
    alice.POST('/v1/accounts/{accountId}/transactions', {
      params: { path: { accountId }, header: key(idempotencyKey) },
      body,
      parseAs: 'text',
    });

  /** A new EUR account of alice's: each test arranges its own, so none depends on another. */
  async function newAccount(): Promise<string> {
    const res = await alice.POST('/v1/accounts', {
      params: { header: key(randomUUID()) },
      body: { currency: 'EUR' },
    });
    expect(res.response.status).toBe(201);
    return res.data?.id ?? '';
  }

  /** A new account credited once with `credit` under `idempotencyKey`. */
  async function creditedAccount(idempotencyKey: string): Promise<string> {
    const accountId = await newAccount();
    const res = await post(accountId, idempotencyKey, credit);
    expect(res.response.status).toBe(201);
    return accountId;
  }

  it('serves the OpenAPI document without a principal, with the configured retention', async () => {
    const res = await anonymous.GET('/v1/openapi.json');

    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({
      openapi: expect.stringMatching(/^3\.1/),
      info: { 'x-idempotency-retention-seconds': RETENTION_SECONDS },
    });
  });

  it('creates an account (201)', async () => {
    const res = await alice.POST('/v1/accounts', {
      params: { header: key('e2e-account-1') },
      body: { currency: 'EUR', name: 'Alice' },
    });

    expect(res.response.status).toBe(201);
    expect(res.data).toEqual({
      id: expect.any(String),
      currency: 'EUR',
      balance: 0,
      available: 0,
      overdraftLimit: 0,
      status: 'open',
      name: 'Alice',
      version: 0,
      creditIntake: 'direct',
      createdAt: expect.stringMatching(ISO_TIME),
      updatedAt: expect.stringMatching(ISO_TIME),
    });
  });

  it('credits once and replays the same key byte for byte', async () => {
    const accountId = await newAccount();
    const first = await post(accountId, 'e2e-credit-1', credit);
    const again = await post(accountId, 'e2e-credit-1', credit);

    expect(first.response.status).toBe(201);
    expect(first.response.headers.get('idempotent-replayed')).toBeNull();
    expect(JSON.parse(String(first.data))).toEqual({
      id: expect.any(String),
      accountId,
      type: 'credit',
      amount: 2_500,
      currency: 'EUR',
      reference: 'top-up',
      origin: 'http',
      createdAt: expect.stringMatching(ISO_TIME),
      effectiveAt: expect.stringMatching(ISO_TIME),
    });
    // Without an effectiveAt in the body the credit counts at its commit (docs/contract.md §26).
    const created = JSON.parse(String(first.data));
    expect(created.effectiveAt).toBe(created.createdAt);
    expect(again.response.status).toBe(first.response.status);
    expect(again.data).toBe(first.data);
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
  });

  it('rejects the same key with a different amount (422 idempotency_key_reused)', async () => {
    const idempotencyKey = randomUUID();
    const accountId = await creditedAccount(idempotencyKey);
    const res = await alice.POST('/v1/accounts/{accountId}/transactions', {
      params: { path: { accountId }, header: key(idempotencyKey) },
      body: { ...credit, amount: 9_999 },
    });

    expectProblem(res, 422, 'idempotency_key_reused');
  });

  it('rejects a debit larger than the balance (409 insufficient_funds)', async () => {
    const accountId = await creditedAccount(randomUUID());
    const res = await alice.POST('/v1/accounts/{accountId}/transactions', {
      params: { path: { accountId }, header: key('e2e-debit-too-much') },
      body: { type: 'debit', amount: 1_000_000, currency: 'EUR' },
    });

    expectProblem(res, 409, 'insufficient_funds');
  });

  it('shows the balance changed exactly once', async () => {
    const accountId = await creditedAccount('e2e-credit-once');
    const retry = await post(accountId, 'e2e-credit-once', credit);
    expect(retry.response.headers.get('idempotent-replayed')).toBe('true');

    const res = await alice.GET('/v1/accounts/{accountId}', { params: { path: { accountId } } });

    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({ id: accountId, currency: 'EUR', balance: 2_500 });
  });

  it('lists transactions newest first', async () => {
    const accountId = await creditedAccount(randomUUID());
    const debit = await alice.POST('/v1/accounts/{accountId}/transactions', {
      params: { path: { accountId }, header: key('e2e-debit-1') },
      body: { type: 'debit', amount: 500, currency: 'EUR' },
    });
    expect(debit.response.status).toBe(201);

    const res = await alice.GET('/v1/accounts/{accountId}/transactions', {
      params: { path: { accountId }, query: { limit: 10 } },
    });

    expect(res.response.status).toBe(200);
    const items = res.data?.items ?? [];
    expect(items.map((t) => [t.type, t.amount, t.origin])).toEqual([
      ['debit', 500, 'http'],
      ['credit', 2_500, 'http'],
    ]);
    expect(items[0]?.id).toBe(debit.data?.id);
    expect(res.data?.nextCursor).toBeNull();
    const balance = await alice.GET('/v1/accounts/{accountId}', {
      params: { path: { accountId } },
    });
    expect(balance.data?.balance).toBe(2_000);
  });

  it('answers 401 without X-Principal-Id', async () => {
    const accountId = await newAccount();
    expectProblem(
      await anonymous.GET('/v1/accounts/{accountId}', { params: { path: { accountId } } }),
      401,
      'unauthenticated',
    );
  });

  it('answers 404 to another principal, for the account and everything under it', async () => {
    const params = { path: { accountId: await newAccount() } };

    expectProblem(await mallory.GET('/v1/accounts/{accountId}', { params }), 404, 'not_found');
    expectProblem(
      await mallory.GET('/v1/accounts/{accountId}/transactions', { params }),
      404,
      'not_found',
    );
    expectProblem(
      await mallory.POST('/v1/accounts/{accountId}/transactions', {
        params: { ...params, header: key('e2e-mallory-1') },
        body: credit,
      }),
      404,
      'not_found',
    );
  });

  // Last: it stops the stack the other tests share.
  it('prints one log line per request, naming route, principal, status and time', async () => {
    const accountId = await newAccount();
    const path = `/v1/accounts/${accountId}`;
    const read = await alice.GET('/v1/accounts/{accountId}', { params: { path: { accountId } } });
    const requestId = read.response.headers.get('apigw-requestid') ?? '';
    await new Promise((resolve) => setTimeout(resolve, 200)); // let the line reach the output

    const lines = stack
      .output()
      .split('\n')
      .filter((line) => line.includes(`GET ${path}`));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[http\] INFO request /);
    expect(lines[0]).toContain(requestId);
    expect(lines[0]).toMatch(/"principal":"alice".*"status":200.*"ms":\d+/);
  });

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
