import { randomUUID } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeadLetter } from '../../../functions/domain/events/port';
import { EventService } from '../../../functions/domain/events/service';
import type { AccountChange } from '../../../functions/domain/journal/model';
import { createEventStore } from '../../../functions/dynamodb/events/store';
import { createMovementStore } from '../../../functions/dynamodb/movements/store';
import { createEventsConsumer } from '../../../functions/handlers/events/consumer';
import { ledgerEvent, sqsEvent, sqsRecord } from '../../../kit/ledger-events';
import { expectExactJournal, type journalApi, type startProjector } from '../../support/journal';
import { startJournalFixture } from '../../support/journal-fixture';
import { quietRuntime } from '../../support/runtime';

/**
 * A batched event write (docs/contract.md §20) is ONE account update carrying n changes; the
 * journal projector (§15) turns it into n records, version − n + 1 … version, each with its
 * own record's delta and entry, in the batch's order.
 */
let client: DynamoDBClient;
let tableName: string;
let projector: Awaited<ReturnType<typeof startProjector>>;
let api: ReturnType<typeof journalApi>;
let deadLetters: DeadLetter[];
let close: () => Promise<void>;

beforeAll(async () => {
  ({ client, tableName, projector, api, close } = await startJournalFixture());
});

afterAll(() => close?.());

function consumer(batchWrites = true) {
  deadLetters = [];
  return createEventsConsumer({
    ...quietRuntime(),
    events: new EventService(
      createEventStore({ client, tableName }),
      createMovementStore({ client, tableName }),
      {
        newId: randomUUID,
        inboxRetentionSeconds: 3600,
        gapRefetchAfterSeconds: 300,
        backdateLimitDays: 90,
      },
    ),
    deadLetters: { send: async (letter) => void deadLetters.push(letter) },
    clock: () => new Date(),
    batchWrites,
  });
}

/** The account item's updates the projector was handed: version and the changes carried. */
function accountUpdates(accountId: string): { version: number; changes: AccountChange[] }[] {
  return projector.seen.flatMap((event) =>
    event.Records.flatMap((record) => {
      const image = record.dynamodb?.NewImage;
      if (!image || record.eventName !== 'MODIFY') return [];
      const item = unmarshall(image as Record<string, AttributeValue> as never);
      if (item.kind !== 'account' || item.id !== accountId) return [];
      return [{ version: Number(item.version), changes: item.lastChanges as AccountChange[] }];
    }),
  );
}

const signed = (type: string, amount: number) => (type === 'ledger.debit.v1' ? -amount : amount);

describe('a batched event write in the journal (docs/contract.md §15, §20)', () => {
  it('yields records version − n + 1 … version with each record’s exact delta', async () => {
    const accountId = await api.account(1_000);
    const specs = Array.from({ length: 30 }, (_, i) => ({
      type: i % 4 === 3 ? ('ledger.debit.v1' as const) : ('ledger.credit.v1' as const),
      amount: 10 + i,
    }));
    const bodies = specs.map((spec) =>
      ledgerEvent({ subject: accountId, currency: 'EUR', ...spec }),
    );
    const result = await consumer()(sqsEvent(...bodies.map((body) => sqsRecord(body))));
    expect(result.batchItemFailures).toEqual([]);
    expect(deadLetters).toEqual([]);

    const records = await api.caughtUp(accountId);
    const money = await api.money(accountId);
    expectExactJournal(records, { ...money, version: 31 });
    // The 30 records came as ONE update of the account: version 1 → 31, 30 changes.
    const batched = accountUpdates(accountId).filter((u) => u.changes.length > 1);
    expect(batched.map((u) => [u.version, u.changes.length])).toEqual([[31, 30]]);
    const tail = records.slice(1);
    expect(tail.map((r) => r.sequence)).toEqual(Array.from({ length: 30 }, (_, i) => 31 - 29 + i));
    expect(tail.map((r) => [r.kind, r.balanceDelta, r.availableDelta])).toEqual(
      specs.map((s) => {
        const delta = signed(s.type, s.amount);
        return [delta < 0 ? 'debit' : 'credit', delta, delta];
      }),
    );
    // Each record names its own entry, and the entries are exactly the account's.
    const entries = await api.entries(accountId);
    expect(new Set(tail.map((r) => r.entryId)).size).toBe(30);
    expect(records.map((r) => r.entryId).sort()).toEqual(entries.map((e) => e.id).sort());
  });

  it('stays contiguous across batches, a fallback and a per-record run', async () => {
    const accountId = await api.account(100);
    const seen = ledgerEvent({ subject: accountId, currency: 'EUR', amount: 5 });
    const batch = (n: number, first: number) =>
      Array.from({ length: n }, (_, i) =>
        sqsRecord(ledgerEvent({ subject: accountId, currency: 'EUR', amount: first + i })),
      );
    // Batched: 12 records in one update.
    expect(
      (await consumer()(sqsEvent(...batch(12, 1), sqsRecord(seen)))).batchItemFailures,
    ).toEqual([]);
    // A duplicate and an overdraft inside: the chunk falls back record by record.
    const over = ledgerEvent({
      subject: accountId,
      currency: 'EUR',
      type: 'ledger.debit.v1',
      amount: 1_000_000,
    });
    const mixed = await consumer()(
      sqsEvent(...batch(3, 100), sqsRecord(seen), sqsRecord(over, 'over'), ...batch(2, 200)),
    );
    expect(mixed.batchItemFailures).toEqual([]);
    expect(deadLetters.map((l) => [l.sourceMessageId, l.code])).toEqual([
      ['over', 'insufficient_funds'],
    ]);
    // Today's per-record path on the same account.
    expect((await consumer(false)(sqsEvent(...batch(4, 300)))).batchItemFailures).toEqual([]);

    const version = 1 + 13 + 5 + 4;
    const records = await api.caughtUp(accountId);
    expect(await api.version(accountId)).toBe(version);
    expectExactJournal(records, { ...(await api.money(accountId)), version });
    const updates = accountUpdates(accountId);
    expect(updates.map((u) => u.changes.length)).toContain(13);
    // Every update's changes are exactly the records version − n + 1 … version.
    for (const update of updates) {
      const range = records.slice(update.version - update.changes.length, update.version);
      expect(range.map((r) => [r.balanceDelta, r.entryId])).toEqual(
        update.changes.map((c) => [c.balanceDelta, c.entryId]),
      );
    }
  });

  it('batches debits into an overdraft, and refuses a closed account record by record', async () => {
    // Ledger depth (docs/contract.md §17): a chunk draws on spendable = available + overdraft.
    const created = await api.post('/v1/accounts', { currency: 'EUR', overdraftLimit: 100 });
    const overdrawn = String(JSON.parse(created.body).id);
    const debit = (amount: number) =>
      sqsRecord(
        ledgerEvent({ subject: overdrawn, currency: 'EUR', type: 'ledger.debit.v1', amount }),
      );
    expect((await consumer()(sqsEvent(debit(30), debit(40)))).batchItemFailures).toEqual([]);
    // Both in ONE update, into the overdraft.
    await api.caughtUp(overdrawn);
    expect(accountUpdates(overdrawn).map((u) => [u.version, u.changes.length])).toEqual([[2, 2]]);
    // Past the limit: the chunk falls back, each judged alone; only the last is refused.
    const over = debit(31);
    expect((await consumer()(sqsEvent(debit(30), over))).batchItemFailures).toEqual([]);
    expect(deadLetters.map((l) => [l.sourceMessageId, l.code])).toEqual([
      [over.messageId, 'insufficient_funds'],
    ]);
    expect(await api.money(overdrawn)).toEqual({ balance: -100, available: -100 });

    const closed = await api.account();
    expect((await api.post(`/v1/accounts/${closed}/close`, {})).statusCode).toBe(200);
    const credits = [1, 2, 3].map((amount) =>
      sqsRecord(ledgerEvent({ subject: closed, currency: 'EUR', amount })),
    );
    expect((await consumer()(sqsEvent(...credits))).batchItemFailures).toEqual([]);
    expect(deadLetters.map((l) => [l.sourceMessageId, l.code])).toEqual(
      credits.map((c) => [c.messageId, 'account_closed']),
    );
    expect(await api.money(closed)).toEqual({ balance: 0, available: 0 });
    expect(await api.version(closed)).toBe(0);
    expect(await api.journal(closed)).toEqual([]);
    expect(await api.version(overdrawn)).toBe(3);
    expectExactJournal(await api.caughtUp(overdrawn), {
      ...(await api.money(overdrawn)),
      version: 3,
    });
  });
});
