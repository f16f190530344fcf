import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { JournalEvent } from '../../../functions/domain/journal/events';
import type { JournalRecord } from '../../../functions/domain/journal/model';
import { silentLog } from '../../../functions/domain/shared/log';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { testConfig } from '../../support/config';
import { seededRandom } from '../../support/fault-proxy';
import { type JournalTopic, journalApi } from '../../support/journal/journal';
import { JournalConsumer, type JournalPageAnswer } from '../../support/journal/journal-consumer';
import { startJournalFixture } from '../../support/journal/journal-fixture';
import { bodyOf } from '../../support/ledger-api';

/**
 * The reference consumer of docs/contract.md §15 against the real topic's events, delivered
 * with a quarter dropped, a fifth duplicated and everything shuffled, as SNS may (at least once,
 * any order). It must end with every record of every account exactly once, in order.
 */
let client: DynamoDBClient;
let tableName: string;
let topic: JournalTopic;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ client, tableName, topic, close } = await startJournalFixture());
});
afterAll(() => close?.());

it('ends with every record exactly once although events are dropped, duplicated and reordered', async () => {
  const app = composeHttpHandler({
    dynamo: client,
    config: testConfig({ tableName, journalReaders: ['downstream'] }),
    callbackSecrets: staticCallbackSecrets('{}'),
    log: silentLog,
  });
  const api = journalApi(app);
  const accounts = [await api.account(1_000), await api.account(1_000), await api.account(1_000)];
  const ledgerTransactions: string[] = [];
  for (let i = 0; i < 40; i++) {
    const [from, to] = [accounts[i % 3], accounts[(i + 1) % 3]] as [string, string];
    const third = accounts[(i + 2) % 3] as string;
    if (i % 8 === 1) {
      // A ledger transaction over all three accounts (docs/contract.md §16).
      const made = await api.post('/v1/ledger-transactions', {
        currency: 'EUR',
        legs: [
          { accountId: from, direction: 'debit', amount: 9 },
          { accountId: to, direction: 'credit', amount: 5 },
          { accountId: third, direction: 'credit', amount: 4 },
        ],
      });
      expect(made.statusCode, made.body).toBe(201);
      ledgerTransactions.push(String(bodyOf(made).id));
    } else if (i % 8 === 5) {
      // Reversals of the last ledger transaction: one record per leg, of kind reversal.
      const last = ledgerTransactions.at(-1);
      const reversed = await api.post(`/v1/ledger-transactions/${last}/reversals`, {});
      expect(reversed.statusCode, reversed.body).toBe(201);
    } else if (i % 4 === 0) {
      await api.post('/v1/transfers', {
        fromAccountId: from,
        toAccountId: to,
        amount: 7,
        currency: 'EUR',
      });
    } else {
      await api.post(`/v1/accounts/${from}/transactions`, {
        type: 'credit',
        amount: i,
        currency: 'EUR',
      });
    }
  }
  const journals = new Map<string, JournalRecord[]>();
  for (const account of accounts) journals.set(account, await api.caughtUp(account));
  const total = [...journals.values()].reduce((sum, records) => sum + records.length, 0);

  const events: JournalEvent[] = [];
  const deadline = Date.now() + 15_000;
  while (new Set(events.map((e) => e.id)).size < total && Date.now() < deadline) {
    events.push(...(await topic.drain()));
  }
  expect(new Set(events.map((e) => e.id)).size).toBe(total);

  const random = seededRandom(18);
  const kept = events.filter(() => random() >= 0.25);
  const duplicated = kept.filter(() => random() < 0.2);
  const deliveries = [...kept, ...duplicated]
    .map((event) => ({ event, order: random() }))
    .sort((x, y) => x.order - y.order)
    .map((d) => d.event);
  expect(deliveries.length).toBeLessThan(events.length + duplicated.length);

  // The consumer reads the catch-up route as a journal reader (CDK context journalReaders).
  const fetchPage = async (accountId: string, afterSequence: number) => {
    const res = await api.get(`/v1/accounts/${accountId}/journal`, 'downstream', {
      afterSequence: String(afterSequence),
      limit: '7',
    });
    expect(res.statusCode).toBe(200);
    return bodyOf(res) as unknown as JournalPageAnswer;
  };
  const appliedRecords: JournalRecord[] = [];
  const consumer = new JournalConsumer(fetchPage, (record) => appliedRecords.push(record));
  for (const event of deliveries) await consumer.onEvent(event);
  // The poll a consumer runs now and then: a lost last event leaves no gap to see.
  for (const account of accounts) await consumer.catchUp(account);

  expect(appliedRecords).toHaveLength(total);
  for (const account of accounts) {
    expect(appliedRecords.filter((r) => r.accountId === account)).toEqual(journals.get(account));
  }
  expect(consumer.catchUps).toBeGreaterThan(accounts.length);
  const kinds = new Set(appliedRecords.map((r) => r.kind));
  for (const kind of ['ledger_debit', 'ledger_credit', 'reversal']) expect(kinds).toContain(kind);
  console.log(
    `reference consumer: ${total} records, ${deliveries.length} deliveries (${events.length - kept.length} dropped, ${duplicated.length} duplicated, shuffled), ${consumer.catchUps} catch-ups`,
  );
});
