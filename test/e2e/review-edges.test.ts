import { randomUUID } from 'node:crypto';
import {
  DeleteMessageBatchCommand,
  GetQueueUrlCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerClient } from '../../client/index';
import { GAP_TAP_QUEUE_NAME } from '../../functions/contract/gaps';
import { sleep } from '../../functions/domain/shared/retry';
import { gapWaiver, ledgerEvent } from '../../kit/ledger-events';
import { queueDepth } from '../support/queue-depth';
import { producerOf } from './support/producer';
import { clientFor, key, type LocalStack, startLocalStack } from './support/stack';

/**
 * docs/contract.md §30 on the wire: the edges a review found, each through the local stack
 * (`npm start`) as a producer or a client meets them: HTTP, SQS and the gap topic's tap.
 */

let stack: LocalStack;
let alice: LedgerClient;
let sqs: SQSClient;
let queueUrl = '';
let tapUrl = '';

beforeAll(async () => {
  stack = await startLocalStack({ INBOX_RETENTION_SECONDS: '3600' });
  alice = clientFor(stack.base, 'alice');
  ({ sqs, queueUrl } = await producerOf(stack.sqsEndpoint));
  tapUrl =
    (await sqs.send(new GetQueueUrlCommand({ QueueName: GAP_TAP_QUEUE_NAME }))).QueueUrl ?? '';
});

afterAll(async () => {
  sqs?.destroy();
  await stack?.interrupt();
  stack?.kill();
});

async function send(body: unknown): Promise<void> {
  await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(body) }));
}

async function drained(): Promise<void> {
  const deadline = Date.now() + 15_000;
  while ((await queueDepth(sqs, queueUrl)) > 0) {
    if (Date.now() > deadline) throw new Error(`ledger-events still holds messages`);
    await sleep(100);
  }
  await sleep(300); // the last batch's write after its delete
}

async function newAccount(): Promise<string> {
  const res = await alice.POST('/v1/accounts', {
    params: { header: key(randomUUID()) },
    body: { currency: 'EUR' },
  });
  expect(res.response.status).toBe(201);
  return res.data?.id ?? '';
}

async function sourceOf(accountId: string, source: string) {
  const res = await alice.GET('/v1/accounts/{accountId}/event-sources', {
    params: { path: { accountId } },
  });
  expect(res.response.status).toBe(200);
  return res.data?.items.find((item) => item.source === source);
}

/** Re-fetch requests on the gap topic's tap naming `accountId`, until `until` holds. */
async function requestsUntil(accountId: string, until: (missing: number[]) => boolean) {
  const missing: number[] = [];
  const deadline = Date.now() + 30_000;
  while (!until(missing)) {
    if (Date.now() > deadline) throw new Error(`re-fetch requests named only ${missing.length}`);
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: tapUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
    );
    for (const message of Messages) {
      const event = JSON.parse(message.Body ?? '{}') as {
        subject: string;
        data: { missing: number[] };
      };
      if (event.subject === accountId) missing.push(...event.data.missing);
    }
    if (Messages.length > 0) {
      await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: tapUrl,
          Entries: Messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })),
        }),
      );
    }
  }
  return missing;
}

describe('gaps beyond the 1,000 listed (docs/contract.md §30)', () => {
  it('keeps them as ranges: waivable, asked for, a later loss still opens a gap, the list refills', async () => {
    const accountId = await newAccount();
    const source = 'urn:e2e:jumpy';
    const event = (sequence: number) =>
      ledgerEvent({ source, subject: accountId, sequence, amount: 1 });
    await send(event(1));
    await drained();
    await send(event(1503));
    await drained();
    expect(await sourceOf(accountId, source)).toMatchObject({
      lastSequence: 1503,
      gapsTruncated: true,
      gapRanges: [{ from: 1002, to: 1502 }],
    });

    // A number in the range is waived, and a later loss (1504) opens a gap after the truncation.
    await send(
      gapWaiver({ source, subject: accountId, data: { numbers: [1400], reason: 'void' } }),
    );
    await send(event(1505));
    await drained();
    const after = await sourceOf(accountId, source);
    expect(after?.waived.map((w) => w.number)).toEqual([1400]);
    expect(after?.gapRanges.at(-1)).toMatchObject({ from: 1504, to: 1504 });

    // Every missing number is asked for, the ranged ones and 1504 included (5 s locally).
    const missing = await requestsUntil(accountId, (seen) => seen.includes(1504));
    expect(missing).toContain(1502);
    expect(missing).not.toContain(1400);
    expect(new Set(missing).size).toBe(missing.length);

    // The listed ones waived: the range refills the list and gapsTruncated clears.
    const listed = Array.from({ length: 1000 }, (_, i) => i + 2);
    await send(
      gapWaiver({ source, subject: accountId, data: { numbers: listed, reason: 'void' } }),
    );
    await drained();
    const refilled = await sourceOf(accountId, source);
    expect(refilled).toMatchObject({ gapsTruncated: false, gapRanges: [] });
    expect(refilled?.gaps).toHaveLength(501 - 1 + 1);
    expect(refilled?.gaps.at(-1)).toBe(1504);
  });
});

async function post(path: string, body: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${stack.base}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-principal-id': 'alice',
      'idempotency-key': randomUUID(),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

async function get(path: string): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${stack.base}${path}`, { headers: { 'x-principal-id': 'alice' } });
  return { status: res.status, body: (await res.json()) as Json };
}

// biome-ignore lint/suspicious/noExplicitAny: a JSON document walked by path in assertions
type Json = any;

describe('as-of balances of a closed account (docs/contract.md §30)', () => {
  it('answers from the journal once it holds every versioned change, closing included', async () => {
    const accountId = await newAccount();
    expect((await post(`/v1/accounts/${accountId}/transactions`, credit(100))).status).toBe(201);
    const debit = { type: 'debit', amount: 100, currency: 'EUR' };
    expect((await post(`/v1/accounts/${accountId}/transactions`, debit)).status).toBe(201);
    await expect
      .poll(async () => (await get(`/v1/accounts/${accountId}/journal`)).body.items.length, {
        timeout: 20_000,
      })
      .toBe(2);
    await sleep(20);
    const between = new Date().toISOString();
    await sleep(20);
    expect((await post(`/v1/accounts/${accountId}/close`, {})).status).toBe(200);
    const asOf = await get(`/v1/accounts/${accountId}/balances?asOf=${between}`);
    expect(asOf).toMatchObject({ status: 200, body: { balance: 0, available: 0, sequence: 2 } });
  });
});

const credit = (amount: number) => ({ type: 'credit', amount, currency: 'EUR' });

/** The schema `ref` names in the served document, its `$ref`s followed. */
function resolve(document: Json, schema: Json): Json {
  if (typeof schema?.$ref !== 'string') return schema;
  const name = String(schema.$ref).replace('#/components/schemas/', '');
  return resolve(document, document.components.schemas[name]);
}

describe('the served OpenAPI document (docs/contract.md §30)', () => {
  it('names the stack as its server', async () => {
    const { body } = await get('/v1/openapi.json');
    expect(body.servers).toEqual([{ url: stack.base, description: 'npm start' }]);
  });

  it('allows a ledger transaction reversal above 10^12 and keeps the entries capped', async () => {
    const ids = await Promise.all([newAccount(), newAccount(), newAccount(), newAccount()]);
    const [a = '', b = '', c = '', d = ''] = ids;
    for (const id of [a, b]) {
      expect((await post(`/v1/accounts/${id}/transactions`, credit(10 ** 12))).status).toBe(201);
    }
    const legs = [
      { accountId: a, direction: 'debit', amount: 10 ** 12 },
      { accountId: b, direction: 'debit', amount: 10 ** 12 },
      { accountId: c, direction: 'credit', amount: 10 ** 12 },
      { accountId: d, direction: 'credit', amount: 10 ** 12 },
    ];
    const moved = await post('/v1/ledger-transactions', { currency: 'EUR', legs });
    expect(moved.status).toBe(201);
    const reversed = await post(`/v1/ledger-transactions/${moved.body.id}/reversals`, {});
    expect(reversed).toMatchObject({ status: 201, body: { amount: 2 * 10 ** 12 } });

    const { body: document } = await get('/v1/openapi.json');
    const answer = (path: string) =>
      resolve(
        document,
        document.paths[path].post.responses['201'].content['application/json'].schema,
      );
    const whole = answer('/v1/ledger-transactions/{ledgerTransactionId}/reversals');
    expect(whole.properties.amount.maximum).toBe(25 * 10 ** 12);
    expect(whole.properties.amount.maximum).toBeGreaterThanOrEqual(reversed.body.amount);
    const entry = answer('/v1/accounts/{accountId}/transactions/{entryId}/reversals');
    expect(entry.properties.amount.maximum).toBe(10 ** 12);
    const body = resolve(
      document,
      document.paths['/v1/transfers/{transferId}/reversals'].post.requestBody.content[
        'application/json'
      ].schema,
    );
    expect(body.properties.amount.maximum).toBe(10 ** 12);
  });
});
