import { randomUUID } from 'node:crypto';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEvent } from '../support/ledger-events';
import { type Producer, producerOf, receiveDeadLetters } from './support/producer';
import { apiClient, groupAlive, type LocalStack, startLocalStack } from './support/stack';

/**
 * Transfers and holds end to end (docs/contract.md §10, §11) on `npm start`: over HTTP like curl,
 * ledger.transfer.v1 events through the SQS emulator, and expiry by the stack's own sweeper.
 */

let stack: LocalStack;
let api: ReturnType<typeof apiClient>;
let producer: Producer;

beforeAll(async () => {
  stack = await startLocalStack({ SWEEP_INTERVAL_SECONDS: '1' });
  api = apiClient(stack.base);
  producer = await producerOf(stack.sqsEndpoint);
});

afterAll(() => {
  producer?.sqs.destroy();
  stack?.kill();
});

const post = (path: string, body: unknown, principal = 'alice', key: string = randomUUID()) =>
  api('POST', path, { principal, key, body });
const get = (path: string, principal = 'alice') => api('GET', path, { principal });

async function account(funds: number, principal = 'alice'): Promise<string> {
  const created = await post('/v1/accounts', { currency: 'EUR' }, principal);
  const id = String(created.json.id);
  if (funds > 0) {
    const credit = { type: 'credit', amount: funds, currency: 'EUR' };
    expect((await post(`/v1/accounts/${id}/transactions`, credit, principal)).status).toBe(201);
  }
  return id;
}

const money = async (id: string, principal = 'alice') => {
  const { json } = await get(`/v1/accounts/${id}`, principal);
  return { balance: json.balance, available: json.available };
};

describe('transfers over HTTP', () => {
  it('moves money once per key and shows both legs', async () => {
    const [a, b] = [await account(1_000), await account(0)];
    const body = { fromAccountId: a, toAccountId: b, amount: 250, currency: 'EUR' };
    const key = randomUUID();
    const first = await post('/v1/transfers', body, 'alice', key);
    expect(first.status).toBe(201);
    const replay = await post('/v1/transfers', body, 'alice', key);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(first.text);
    expect(await money(a)).toEqual({ balance: 750, available: 750 });
    expect(await money(b)).toEqual({ balance: 250, available: 250 });
    const read = await get(`/v1/transfers/${first.json.id}`);
    expect(read.json).toEqual(first.json);
    const legs = (await get(`/v1/accounts/${b}/transactions`)).json.items as unknown[];
    expect(legs[0]).toMatchObject({ type: 'transfer_in', transferId: first.json.id });
  });
});

describe('holds over HTTP', () => {
  it('authorises, then captures part: balance and available end equal', async () => {
    const a = await account(1_000);
    const hold = await post(`/v1/accounts/${a}/holds`, {
      amount: 400,
      currency: 'EUR',
      expiresInSeconds: 600,
    });
    expect(hold.status).toBe(201);
    expect(await money(a)).toEqual({ balance: 1_000, available: 600 });
    const captured = await post(`/v1/holds/${hold.json.id}/captures`, { amount: 300 });
    expect(captured.json).toMatchObject({ status: 'captured', capturedAmount: 300 });
    expect(await money(a)).toEqual({ balance: 700, available: 700 });
  });

  it("the stack's sweeper releases an expired hold within its interval", async () => {
    const a = await account(500);
    const hold = await post(`/v1/accounts/${a}/holds`, {
      amount: 200,
      currency: 'EUR',
      expiresInSeconds: 1,
    });
    expect(hold.status).toBe(201);
    await expect
      .poll(async () => (await money(a)).available, { timeout: 15_000, interval: 200 })
      .toBe(500);
    expect((await get(`/v1/holds/${hold.json.id}`)).json.status).toBe('expired');
    const late = await post(`/v1/holds/${hold.json.id}/captures`, {});
    expect(late.json.code).toBe('hold_expired');
    const listed = await api('GET', `/v1/accounts/${a}/holds?status=expired`, {
      principal: 'alice',
    });
    expect((listed.json.items as unknown[]).length).toBe(1);
  });
});

describe('ledger.transfer.v1 through the SQS emulator', () => {
  it('applies a transfer event once and dead-letters the ones that can never apply', async () => {
    const [a, b] = [await account(1_000), await account(0)];
    const bobs = await account(0, 'bob');
    const event = ledgerEvent({
      type: 'ledger.transfer.v1',
      subject: a,
      toAccountId: b,
      amount: 300,
    });
    const send = (body: unknown) =>
      producer.sqs.send(
        new SendMessageCommand({ QueueUrl: producer.queueUrl, MessageBody: JSON.stringify(body) }),
      );
    await send(event);
    await send(event); // redelivered by the producer
    const mismatch = ledgerEvent({ type: 'ledger.transfer.v1', subject: a, toAccountId: bobs });
    const self = ledgerEvent({ type: 'ledger.transfer.v1', subject: a, toAccountId: a });
    await send(mismatch);
    await send(self);

    await expect
      .poll(async () => (await money(b)).balance, { timeout: 15_000, interval: 200 })
      .toBe(300);
    const letters = await receiveDeadLetters(producer, 2);
    const codes = letters.map((m) => m.MessageAttributes?.error_code?.StringValue).sort();
    expect(codes).toEqual(['owner_mismatch', 'schema_invalid']);
    expect(await money(a)).toEqual({ balance: 700, available: 700 });
    expect(await money(bobs, 'bob')).toEqual({ balance: 0, available: 0 });
  });

  it('stops on SIGINT, sweeper included', async () => {
    expect(await stack.interrupt()).toBe(0);
    expect(stack.output()).toMatch(/stopped sweeper/);
    await expect.poll(() => groupAlive(stack.pid), { timeout: 10_000 }).toBe(false);
  });
});
