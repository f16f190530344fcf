import { randomUUID } from 'node:crypto';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerClient } from '../../client/index';
import { ledgerEvent } from '../../kit/ledger-events';
import { type Producer, producerOf, receiveDeadLetters } from './support/producer';
import { clientFor, groupAlive, key, type LocalStack, startLocalStack } from './support/stack';

/**
 * Transfers and holds end to end (docs/contract.md §10, §11) on `npm start`: over HTTP through
 * the typed client, ledger.transfer.v1 events through the SQS emulator, and expiry by the
 * stack's own sweeper.
 */

let stack: LocalStack;
let alice: LedgerClient;
let bob: LedgerClient;
let producer: Producer;

beforeAll(async () => {
  stack = await startLocalStack({ SWEEP_INTERVAL_SECONDS: '1' });
  alice = clientFor(stack.base, 'alice');
  bob = clientFor(stack.base, 'bob');
  producer = await producerOf(stack.sqsEndpoint);
});

afterAll(() => {
  producer?.sqs.destroy();
  stack?.kill();
});

async function account(funds: number, client = alice): Promise<string> {
  const created = await client.POST('/v1/accounts', {
    params: { header: key(randomUUID()) },
    body: { currency: 'EUR' },
  });
  const id = created.data?.id ?? '';
  if (funds > 0) {
    const credit = await client.POST('/v1/accounts/{accountId}/transactions', {
      params: { path: { accountId: id }, header: key(randomUUID()) },
      body: { type: 'credit', amount: funds, currency: 'EUR' },
    });
    expect(credit.response.status).toBe(201);
  }
  return id;
}

const money = async (accountId: string, client = alice) => {
  const { data } = await client.GET('/v1/accounts/{accountId}', {
    params: { path: { accountId } },
  });
  return { balance: data?.balance, available: data?.available };
};

const placeHold = (accountId: string, amount: number, expiresInSeconds: number) =>
  alice.POST('/v1/accounts/{accountId}/holds', {
    params: { path: { accountId }, header: key(randomUUID()) },
    body: { amount, currency: 'EUR', expiresInSeconds },
  });

const capture = (holdId: string, amount?: number) =>
  alice.POST('/v1/holds/{holdId}/captures', {
    params: { path: { holdId }, header: key(randomUUID()) },
    body: amount === undefined ? {} : { amount },
  });

describe('transfers over HTTP', () => {
  it('moves money once per key and shows both legs', async () => {
    const [a, b] = [await account(1_000), await account(0)];
    const body = { fromAccountId: a, toAccountId: b, amount: 250, currency: 'EUR' };
    const header = key(randomUUID());
    const first = await alice.POST('/v1/transfers', { params: { header }, body });
    expect(first.response.status).toBe(201);
    const replay = await alice.POST('/v1/transfers', { params: { header }, body });
    expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.data).toEqual(first.data);
    expect(await money(a)).toEqual({ balance: 750, available: 750 });
    expect(await money(b)).toEqual({ balance: 250, available: 250 });
    const transferId = first.data?.id ?? '';
    const read = await alice.GET('/v1/transfers/{transferId}', {
      params: { path: { transferId } },
    });
    // The read shows what has been reversed of it (docs/contract.md §16); the 201 does not.
    expect(read.data).toEqual({ ...first.data, reversedAmount: 0 });
    const legs = await alice.GET('/v1/accounts/{accountId}/transactions', {
      params: { path: { accountId: b } },
    });
    expect(legs.data?.items[0]).toMatchObject({ type: 'transfer_in', transferId });
  });
});

describe('holds over HTTP', () => {
  it('authorises, then captures part: balance and available end equal', async () => {
    const a = await account(1_000);
    const hold = await placeHold(a, 400, 600);
    expect(hold.response.status).toBe(201);
    expect(await money(a)).toEqual({ balance: 1_000, available: 600 });
    const captured = await capture(hold.data?.id ?? '', 300);
    expect(captured.data).toMatchObject({ status: 'captured', capturedAmount: 300 });
    expect(await money(a)).toEqual({ balance: 700, available: 700 });
  });

  it("the stack's sweeper releases an expired hold within its interval", async () => {
    const a = await account(500);
    const hold = await placeHold(a, 200, 1);
    expect(hold.response.status).toBe(201);
    const holdId = hold.data?.id ?? '';
    await expect
      .poll(async () => (await money(a)).available, { timeout: 15_000, interval: 200 })
      .toBe(500);
    const read = await alice.GET('/v1/holds/{holdId}', { params: { path: { holdId } } });
    expect(read.data?.status).toBe('expired');
    const late = await capture(holdId);
    expect(late.error?.code).toBe('hold_expired');
    const listed = await alice.GET('/v1/accounts/{accountId}/holds', {
      params: { path: { accountId: a }, query: { status: 'expired' } },
    });
    expect(listed.data?.items).toHaveLength(1);
  });
});

describe('search (docs/contract.md §34) on npm start: projector → search-index → indexer', () => {
  type Query = Record<string, string>;
  const find = async (client: LedgerClient, query: Query) => {
    // `metadata.<key>` parameters are open-ended: the typed client declares the fixed ones.
    const res = await client.GET('/v1/transactions', {
      params: { query: query as { reference?: string } },
    });
    return { status: res.response.status, ids: (res.data?.items ?? []).map((e) => e.id) };
  };
  /** Polls until `found` holds or 5 s pass after `since`; answers when it first held. */
  async function within5s(since: number, found: () => Promise<boolean>): Promise<number> {
    for (;;) {
      if (await found()) return Date.now() - since;
      if (Date.now() - since > 5000) throw new Error('not found within 5 s of its 201');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('finds a credit by metadata within 5 s of its 201, by AND, reference and paymentId, only its owner’s', async () => {
    const order = randomUUID();
    const id = await account(0);
    const post = (body: Record<string, unknown>) =>
      alice.POST('/v1/accounts/{accountId}/transactions', {
        params: { path: { accountId: id }, header: key(randomUUID()) },
        body: { type: 'credit', amount: 5, currency: 'EUR', ...body },
      });
    const other = await post({ metadata: { order, shop: 's2' } });
    const credit = await post({
      metadata: { order, shop: 's1' },
      reference: `ref-${order}`,
      paymentId: `pay-${order}`,
    });
    const created = Date.now();
    expect(credit.response.status).toBe(201);
    const entryId = credit.data?.id ?? '';
    await within5s(created, async () =>
      (await find(alice, { 'metadata.order': order })).ids.includes(entryId),
    );
    expect((await find(alice, { 'metadata.order': order })).ids).toEqual([entryId, other.data?.id]);
    expect((await find(alice, { 'metadata.order': order, 'metadata.shop': 's1' })).ids).toEqual([
      entryId,
    ]);
    expect((await find(alice, { reference: `ref-${order}` })).ids).toEqual([entryId]);
    expect((await find(alice, { paymentId: `pay-${order}` })).ids).toEqual([entryId]);
    expect((await find(bob, { 'metadata.order': order })).ids).toEqual([]);
    expect((await find(alice, {})).status).toBe(400);
  });

  it('finds an account by metadata within 5 s of its 201', async () => {
    const order = randomUUID();
    const created = await alice.POST('/v1/accounts', {
      params: { header: key(randomUUID()) },
      body: { currency: 'EUR', name: 'Search Shop', metadata: { order } },
    });
    const since = Date.now();
    expect(created.response.status).toBe(201);
    const query = { 'metadata.order': order, name: 'search s' } as { name?: string };
    await within5s(since, async () => {
      const res = await alice.GET('/v1/accounts', { params: { query } });
      return (res.data?.items ?? []).some((a) => a.id === created.data?.id);
    });
  });
});

describe('ledger.transfer.v1 through the SQS emulator', () => {
  it('applies a transfer event once and dead-letters the ones that can never apply', async () => {
    const [a, b] = [await account(1_000), await account(0)];
    const bobs = await account(0, bob);
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
    await send(ledgerEvent({ type: 'ledger.transfer.v1', subject: a, toAccountId: bobs }));
    await send(ledgerEvent({ type: 'ledger.transfer.v1', subject: a, toAccountId: a }));

    await expect
      .poll(async () => (await money(b)).balance, { timeout: 15_000, interval: 200 })
      .toBe(300);
    const letters = await receiveDeadLetters(producer, 2);
    const codes = letters.map((m) => m.MessageAttributes?.error_code?.StringValue).sort();
    expect(codes).toEqual(['owner_mismatch', 'schema_invalid']);
    expect(await money(a)).toEqual({ balance: 700, available: 700 });
    expect(await money(bobs, bob)).toEqual({ balance: 0, available: 0 });
  });

  it('stops on SIGINT, sweeper included', async () => {
    expect(await stack.interrupt()).toBe(0);
    expect(stack.output()).toMatch(/stopped sweeper/);
    await expect.poll(() => groupAlive(stack.pid), { timeout: 10_000 }).toBe(false);
  });
});
