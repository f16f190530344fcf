import { randomUUID } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { httpResponses } from '../../../functions/api/problems';
import { LedgerService } from '../../../functions/domain/accounts/service';
import type { DeadLetter } from '../../../functions/domain/events/port';
import { EventService } from '../../../functions/domain/events/service';
import { createLedgerStore } from '../../../functions/dynamodb/accounts/store';
import { createEventStore } from '../../../functions/dynamodb/events/store';
import { createMovementStore } from '../../../functions/dynamodb/movements/store';
import {
  createEventsConsumer,
  type EventsHandler,
} from '../../../functions/handlers/events/consumer';
import { ledgerEvent, sqsEvent, sqsRecord } from '../../../kit/ledger-events';
import { createTestTable } from '../../support/dynamo';
import { quietRuntime } from '../../support/runtime';

/**
 * A permanent refusal of an event is final, like a `409` under an HTTP key (docs/contract.md
 * §6): found by the soak (seeds 7016, 7018, 6006), a debit refused for funds and dead-lettered
 * was applied by a later delivery of the same event once the account was funded.
 */
let client: DynamoDBClient;
let tableName: string;
let drop: () => Promise<void>;
let ledger: LedgerService;
let letters: DeadLetter[];
let handle: EventsHandler;

beforeAll(async () => {
  ({ client, tableName, drop } = await createTestTable());
  const table = { client, tableName };
  ledger = new LedgerService(createLedgerStore(table), createMovementStore(table), {
    idempotencyRetentionSeconds: 60,
    responses: httpResponses,
    backdateLimitDays: 90,
    newId: randomUUID,
  });
  handle = createEventsConsumer({
    ...quietRuntime(),
    events: new EventService(createEventStore(table), createMovementStore(table), {
      newId: randomUUID,
      inboxRetentionSeconds: 3600,
      gapRefetchAfterSeconds: 300,
      backdateLimitDays: 90,
    }),
    deadLetters: { send: async (letter) => void letters.push(letter) },
    clock: () => new Date(),
  });
});
afterAll(() => drop());
beforeEach(() => {
  letters = [];
});

async function newAccount(): Promise<string> {
  const ctx = { principal: 'owner', idempotencyKey: randomUUID(), now: new Date() };
  const res = await ledger.createAccount(ctx, { currency: 'EUR' }, { currency: 'EUR' });
  return JSON.parse(res.body).id;
}

async function figures(accountId: string) {
  const account = await ledger.getAccount('owner', accountId);
  const page = await ledger.listTransactions('owner', accountId, 100, undefined);
  return { balance: account.balance, entries: page.items.length };
}

/** A dead letter moved back to the queue: a new message that still carries `error_code`. */
function redriven(letter: DeadLetter | undefined, messageId: string = randomUUID()): SQSRecord {
  if (!letter) throw new Error('no dead letter to redrive');
  return {
    ...sqsRecord(letter.body, messageId),
    messageAttributes: {
      error_code: { stringValue: letter.code, dataType: 'String' },
      error_detail: { stringValue: letter.detail, dataType: 'String' },
    },
  };
}

const send = (...records: SQSRecord[]) => handle(sqsEvent(...records));

describe('a refused event stays refused', () => {
  it('a second delivery after funding replays insufficient_funds, nothing applied', async () => {
    const accountId = await newAccount();
    const debit = ledgerEvent({ subject: accountId, type: 'ledger.debit.v1', amount: 300 });
    await send(sqsRecord(debit));
    expect(letters.map((l) => l.code)).toEqual(['insufficient_funds']);

    await send(sqsRecord(ledgerEvent({ subject: accountId, amount: 500 })));
    // The same event again, as SQS or the producer may deliver it: not a redrive.
    const again = await send(sqsRecord(debit));
    expect(again.batchItemFailures).toEqual([]);
    expect(letters.map((l) => l.code)).toEqual(['insufficient_funds', 'insufficient_funds']);
    expect(await figures(accountId)).toEqual({ balance: 500, entries: 1 });
  });

  it('replays it when the duplicate shares a batch with the funding credit', async () => {
    const accountId = await newAccount();
    const debit = ledgerEvent({ subject: accountId, type: 'ledger.debit.v1', amount: 300 });
    await send(sqsRecord(debit));
    // One run of one account's events (§20): the credit applies, the debit replays its refusal.
    await send(sqsRecord(ledgerEvent({ subject: accountId, amount: 500 })), sqsRecord(debit));
    expect(letters.map((l) => l.code)).toEqual(['insufficient_funds', 'insufficient_funds']);
    expect(await figures(accountId)).toEqual({ balance: 500, entries: 1 });
  });
});

describe('a redriven dead letter is evaluated again, once', () => {
  it('applies once its cause is fixed; its duplicates and other redrives are duplicates', async () => {
    const accountId = await newAccount();
    const debit = ledgerEvent({ subject: accountId, type: 'ledger.debit.v1', amount: 300 });
    await send(sqsRecord(debit));
    await send(sqsRecord(ledgerEvent({ subject: accountId, amount: 500 })));

    const redrive = redriven(letters[0], 'redrive-1');
    await send(redrive);
    expect(await figures(accountId)).toEqual({ balance: 200, entries: 2 });
    // SQS delivers the redriven message twice; an operator redrives a second copy.
    await send(redrive);
    await send(redriven(letters[0], 'redrive-2'));
    await send(sqsRecord(debit));
    expect(letters).toHaveLength(1);
    expect(await figures(accountId)).toEqual({ balance: 200, entries: 2 });
  });

  it('refused again before funding: that redrive replays, the next one applies', async () => {
    const accountId = await newAccount();
    const debit = ledgerEvent({ subject: accountId, type: 'ledger.debit.v1', amount: 300 });
    await send(sqsRecord(debit));
    const early = redriven(letters[0], 'early');
    await send(early);
    expect(letters.map((l) => l.code)).toEqual(['insufficient_funds', 'insufficient_funds']);

    await send(sqsRecord(ledgerEvent({ subject: accountId, amount: 500 })));
    // A second delivery of the early redrive is that redrive's duplicate: its refusal stands.
    await send(early);
    expect(letters).toHaveLength(3);
    expect(await figures(accountId)).toEqual({ balance: 500, entries: 1 });

    await send(redriven(letters[1], 'late'));
    expect(letters).toHaveLength(3);
    expect(await figures(accountId)).toEqual({ balance: 200, entries: 2 });
  });
});
