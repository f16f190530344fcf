import { randomUUID } from 'node:crypto';
import { ReceiveMessageCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerClient } from '../../client/index';
import { sleep } from '../../functions/domain/shared/retry';
import { ledgerEvent } from '../../kit/ledger-events';
import { queueDepth } from '../support/queue-depth';
import { producerOf, receiveDeadLetters } from './support/producer';
import {
  clientFor,
  groupAlive,
  key,
  type LocalStack,
  portAnswers,
  startLocalStack,
} from './support/stack';

/**
 * Ledger events end to end (contract §6, §9): a producer sends CloudEvents to the local SQS
 * emulator, the stack's poller hands them to the real consumer, and the effect shows over HTTP.
 */

let stack: LocalStack;
/** The account owner, through the typed client. */
let alice: LedgerClient;
let sqs: SQSClient;
let queueUrl = '';
let dlqUrl = '';

beforeAll(async () => {
  stack = await startLocalStack({ INBOX_RETENTION_SECONDS: '3600' });
  alice = clientFor(stack.base, 'alice');
  ({ sqs, queueUrl, dlqUrl } = await producerOf(stack.sqsEndpoint));
});

afterAll(() => {
  sqs?.destroy();
  // Safety net only: the last test stops the stack with SIGINT.
  stack?.kill();
});

async function send(body: unknown): Promise<string> {
  const result = await sqs.send(
    new SendMessageCommand({
      QueueUrl: queueUrl,
      MessageBody: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
  return result.MessageId ?? '';
}

const depth = (url: string) => queueDepth(sqs, url);

/** Waits until the poller has received and deleted everything sent so far. */
async function drained(): Promise<void> {
  // A loop rather than expect.poll, which only works inside a test (this also runs in beforeAll).
  const deadline = Date.now() + 15_000;
  while ((await depth(queueUrl)) > 0) {
    if (Date.now() > deadline) {
      throw new Error(`ledger-events still holds messages:\n${stack.output().slice(-3000)}`);
    }
    await sleep(100);
  }
}

async function balance(accountId: string): Promise<number | undefined> {
  return (await alice.GET('/v1/accounts/{accountId}', { params: { path: { accountId } } })).data
    ?.balance;
}

describe('ledger events through the local SQS emulator', () => {
  let accountId = '';
  let balanceAfterCredits: unknown;
  const sharedId = randomUUID();
  const sourceA = 'urn:e2e:bank-a';
  const sourceB = 'urn:e2e:bank-b';

  // One arrangement the tests below read, so each of them also runs alone (`-t`).
  beforeAll(async () => {
    const res = await alice.POST('/v1/accounts', {
      params: { header: key('e2e-events-account') },
      body: { currency: 'EUR' },
    });
    expect(res.response.status).toBe(201);
    accountId = res.data?.id ?? '';

    const credit = ledgerEvent({
      id: sharedId,
      source: sourceA,
      subject: accountId,
      sequence: 1,
      amount: 1_000,
    });
    await send(credit);
    await send(credit); // the producer retried: same (source, id)
    await send(
      ledgerEvent({ id: sharedId, source: sourceB, subject: accountId, sequence: 1, amount: 300 }),
    );
    await drained();
    balanceAfterCredits = await balance(accountId);

    // Sent after the credits applied, so it never meets an empty balance. Sequence 3 leaves 2 missing.
    await send(
      ledgerEvent({
        source: sourceA,
        type: 'ledger.debit.v1',
        subject: accountId,
        sequence: 3,
        amount: 200,
      }),
    );
    await drained();
  });

  it('applies each distinct event once: a redelivered id changes nothing, another source may reuse it', async () => {
    expect(balanceAfterCredits).toBe(1_300);
    expect(await balance(accountId)).toBe(1_100);
  });

  it('lists the event entries with origin "event"', async () => {
    const res = await alice.GET('/v1/accounts/{accountId}/transactions', {
      params: { path: { accountId }, query: { limit: 10 } },
    });

    expect(res.response.status).toBe(200);
    const items = res.data?.items ?? [];
    expect(items).toHaveLength(3);
    expect(items[0]).toMatchObject({ type: 'debit', amount: 200, origin: 'event', accountId });
    expect(
      items
        .slice(1)
        .map((t) => [t.type, t.amount, t.origin])
        .sort(),
    ).toEqual([
      ['credit', 1_000, 'event'],
      ['credit', 300, 'event'],
    ]);
  });

  it('lists the event sources with their last sequence and gaps', async () => {
    const res = await alice.GET('/v1/accounts/{accountId}/event-sources', {
      params: { path: { accountId } },
    });

    expect(res.response.status).toBe(200);
    const items = [...(res.data?.items ?? [])];
    expect(items.sort((a, b) => String(a.source).localeCompare(String(b.source)))).toMatchObject([
      { source: sourceA, lastSequence: 3, gaps: [2], gapsTruncated: false },
      { source: sourceB, lastSequence: 1, gaps: [], gapsTruncated: false },
    ]);
  });

  it('dead-letters a poison message and an event for an unknown account, once each, body unchanged', async () => {
    const poison = 'this is not JSON {';
    const unknown = JSON.stringify(ledgerEvent({ subject: randomUUID(), amount: 500 }));
    await send(poison);
    await send(unknown);

    const letters = await receiveDeadLetters({ sqs, queueUrl, dlqUrl }, 2);
    // Nothing else arrives: each was dead-lettered exactly once.
    const extra = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: dlqUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
    );
    expect(extra.Messages ?? []).toEqual([]);

    const byBody = new Map(letters.map((m) => [m.Body, m]));
    expect(letters).toHaveLength(2);
    expect(byBody.get(poison)?.MessageAttributes).toMatchObject({
      error_code: { DataType: 'String', StringValue: 'invalid_json' },
      error_detail: { DataType: 'String', StringValue: expect.stringMatching(/./) },
    });
    expect(byBody.get(unknown)?.MessageAttributes).toMatchObject({
      error_code: { DataType: 'String', StringValue: 'unknown_account' },
      error_detail: { DataType: 'String', StringValue: expect.stringMatching(/./) },
    });
    expect(await balance(accountId)).toBe(1_100);
    // Dead-lettered means gone from the main queue, not redelivered there.
    await drained();
  });

  // Last: it stops the stack the other tests share.

  it('stops on SIGINT, SQS emulator included', async () => {
    expect(await stack.interrupt()).toBe(0);
    expect(stack.output()).toMatch(/stopped SQS poller/);
    expect(stack.output()).toMatch(/stopped SQS emulator/);
    await expect.poll(() => groupAlive(stack.pid), { timeout: 10_000 }).toBe(false);
    expect(await portAnswers(stack.sqsPort)).toBe(false);
  });
});
