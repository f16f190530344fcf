import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeadLetter } from '../../../functions/domain/events/port';
import { EventService } from '../../../functions/domain/events/service';
import type { JournalEvent } from '../../../functions/domain/journal/events';
import { createEventStore } from '../../../functions/dynamodb/events/store';
import { createMovementStore } from '../../../functions/dynamodb/movements/store';
import {
  createEventsConsumer,
  type EventsHandler,
} from '../../../functions/handlers/events/consumer';
import { type EventSpec, ledgerEvent, sqsEvent, sqsRecord } from '../../../kit/ledger-events';
import { type JournalFixture, startJournalFixture } from '../../support/journal/journal-fixture';
import { bodyOf } from '../../support/ledger-api';
import { quietRuntime } from '../../support/runtime';

/**
 * docs/contract.md §26 in the journal (§15): the record of a change with an entry carries the
 * entry's `effectiveAt`, and so does its ledger.journal.v1 event (`data.effectiveAt`), for HTTP
 * movements and ledger events alike; a hold's own record has none; the journal stays in commit
 * order whatever the effective dates.
 */
let fixture: JournalFixture;
let consume: EventsHandler;
const deadLetters: DeadLetter[] = [];

beforeAll(async () => {
  fixture = await startJournalFixture();
  const table = { client: fixture.client, tableName: fixture.tableName };
  consume = createEventsConsumer({
    ...quietRuntime(),
    events: new EventService(createEventStore(table), createMovementStore(table), {
      newId: randomUUID,
      inboxRetentionSeconds: 3600,
      gapRefetchAfterSeconds: 300,
      backdateLimitDays: fixture.config.backdateLimitDays,
    }),
    deadLetters: { send: async (letter) => void deadLetters.push(letter) },
  });
});
afterAll(() => fixture?.close());

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

/** Every journal event drained so far, by id (the topic may repeat one). */
const drained = new Map<string, JournalEvent>();

/** An account's journal events by sequence, once `count` of them arrived (or 10 s passed). */
async function published(accountId: string, count: number): Promise<JournalEvent[]> {
  const mine = () => [...drained.values()].filter((e) => e.subject === accountId);
  const deadline = Date.now() + 10_000;
  while (mine().length < count && Date.now() < deadline) {
    for (const e of await fixture.topic.drain()) drained.set(e.id, e);
  }
  return mine().sort((x, y) => x.data.sequence - y.data.sequence);
}

describe('effectiveAt in the journal and its events (docs/contract.md §26, §15)', () => {
  it('rides on every record with an entry and its event, in commit order', async () => {
    const { api } = fixture;
    const [a, b] = [await api.account(1_000), await api.account()];
    // Written in this order, dated out of order: HTTP movements, then ledger events.
    const dated: [string, () => Promise<unknown>][] = [];
    const http = (path: string, body: Record<string, unknown>, days: number) => {
      const effectiveAt = ago(days);
      dated.push([
        effectiveAt,
        async () => {
          const res = await api.post(path, { currency: 'EUR', ...body, effectiveAt });
          expect(res.statusCode, res.body).toBe(201);
        },
      ]);
    };
    const viaEvent = (spec: Omit<EventSpec, 'subject'>, days: number) => {
      const effectiveAt = ago(days);
      dated.push([
        effectiveAt,
        async () => {
          const body = ledgerEvent({ subject: a, ...spec, effectiveAt });
          expect((await consume(sqsEvent(sqsRecord(body)))).batchItemFailures).toEqual([]);
        },
      ]);
    };
    http(`/v1/accounts/${a}/transactions`, { type: 'credit', amount: 30 }, 3);
    http(`/v1/accounts/${a}/transactions`, { type: 'debit', amount: 10 }, 1);
    http('/v1/transfers', { fromAccountId: a, toAccountId: b, amount: 20 }, 2);
    const legs = [
      { accountId: a, direction: 'debit', amount: 40 },
      { accountId: b, direction: 'credit', amount: 40 },
    ] as const;
    http('/v1/ledger-transactions', { legs }, 4);
    viaEvent({ type: 'ledger.credit.v1', amount: 50 }, 5);
    viaEvent({ type: 'ledger.debit.v1', amount: 5 }, 8);
    viaEvent({ type: 'ledger.transfer.v1', toAccountId: b, amount: 6 }, 6);
    viaEvent({ type: 'ledger.transaction.v1', legs }, 7);
    for (const [, write] of dated) await write();
    // A hold: its own record has no entry and no effectiveAt; its capture counts when written.
    const hold = await api.post(`/v1/accounts/${a}/holds`, {
      amount: 3,
      currency: 'EUR',
      expiresInSeconds: 600,
    });
    const capture = await api.post(`/v1/holds/${bodyOf(hold).id}/captures`, {});
    expect(capture.statusCode, capture.body).toBe(200);

    const records = await api.caughtUp(a);
    expect(deadLetters).toEqual([]);
    const entries = new Map((await api.entries(a)).map((e) => [e.id, e]));
    expect(records.map((r) => r.sequence)).toEqual(records.map((_, i) => i + 1));
    // Commit order: the funding credit, the eight dated movements, the hold, its capture.
    expect(records.map((r) => r.effectiveAt)).toEqual([
      entries.get(String(records[0]?.entryId))?.createdAt,
      ...dated.map(([effectiveAt]) => effectiveAt),
      undefined,
      entries.get(String(records[10]?.entryId))?.createdAt,
    ]);
    expect(records[9]).toMatchObject({ kind: 'hold_placed' });
    expect(records[9]?.entryId).toBeUndefined();
    for (const record of records.filter((r) => r.entryId !== undefined)) {
      expect(record.effectiveAt).toBe(entries.get(String(record.entryId))?.effectiveAt);
    }
    const events = await published(a, records.length);
    expect(events.map((e) => e.data)).toEqual(records);

    // The destination's records carry the same dates as its legs.
    const incoming = await api.caughtUp(b);
    expect(incoming.map((r) => [r.kind, r.effectiveAt])).toEqual([
      ['transfer_in', dated[2]?.[0]],
      ['ledger_credit', dated[3]?.[0]],
      ['transfer_in', dated[6]?.[0]],
      ['ledger_credit', dated[7]?.[0]],
    ]);
    expect((await published(b, incoming.length)).map((e) => e.data.effectiveAt)).toEqual(
      incoming.map((r) => r.effectiveAt),
    );
  });
});
