import { randomUUID } from 'node:crypto';
import { type DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../../functions/domain/journal/model';
import { silentLog } from '../../../functions/domain/shared/log';
import { composeSweeper } from '../../../functions/handlers/sweeper/compose';
import { localJournalProjector } from '../../../local/functions';
import { localDynamoClient } from '../../../local/services/dynamodb/dynamodb-local';
import { testConfig, testSweeper } from '../../support/config';
import { dynamoEndpoint } from '../../support/dynamo-lease';
import {
  expectExactJournal,
  type JournalTopic,
  type journalApi,
  type startProjector,
} from '../../support/journal/journal';
import { startJournalFixture } from '../../support/journal/journal-fixture';
import { bodyOf } from '../../support/ledger-api';

let client: DynamoDBClient;
let tableName: string;
let topic: JournalTopic;
let projector: Awaited<ReturnType<typeof startProjector>>;
let api: ReturnType<typeof journalApi>;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ client, tableName, topic, projector, api, close } = await startJournalFixture({
    journalReaders: ['auditor'],
  }));
});

afterAll(() => close?.());

const credit = (amount: number) => ({ type: 'credit', amount, currency: 'EUR' });

describe('the journal under concurrent credits and crossing transfers (docs/contract.md §15)', () => {
  it('is contiguous 1..version, arithmetically exact and ends at the balances', async () => {
    const a = await api.account(10_000);
    const b = await api.account(10_000);
    const [credits, each] = [24, 8];
    const writes = [
      ...Array.from({ length: credits }, (_, i) =>
        api.post(`/v1/accounts/${a}/transactions`, credit(i + 1)),
      ),
      ...Array.from({ length: each }, (_, i) =>
        api.post('/v1/transfers', {
          fromAccountId: a,
          toAccountId: b,
          amount: 100 + i,
          currency: 'EUR',
        }),
      ),
      ...Array.from({ length: each }, (_, i) =>
        api.post('/v1/transfers', {
          fromAccountId: b,
          toAccountId: a,
          amount: 200 + i,
          currency: 'EUR',
        }),
      ),
    ];
    expect((await Promise.all(writes)).map((r) => r.statusCode)).toEqual(writes.map(() => 201));

    for (const [account, transfers] of [
      [a, 2 * each],
      [b, 2 * each],
    ] as const) {
      const records = await api.caughtUp(account);
      const money = await api.money(account);
      const version = await api.version(account);
      expect(version).toBe(1 + (account === a ? credits : 0) + transfers);
      expectExactJournal(records, { ...money, version });
      const legs = records.filter((r) => r.kind.startsWith('transfer_'));
      expect(legs).toHaveLength(transfers);
      for (const leg of legs) expect(leg.transferId).toMatch(/^[0-9a-f-]{36}$/);
      // Every record names its entry; the entries listing holds exactly those.
      const entryIds = (await api.entries(account)).map((e) => e.id);
      expect(records.map((r) => r.entryId).sort()).toEqual([...entryIds].sort());
    }
  });

  it('answers as-of balances between changes from the journal', async () => {
    const a = await api.account();
    for (const amount of [100, 20, 3]) {
      await api.post(`/v1/accounts/${a}/transactions`, credit(amount));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await api.post(`/v1/accounts/${a}/transactions`, { ...credit(50), type: 'debit' });
    const records = await api.caughtUp(a);
    const asOf = async (instant: string) => {
      const res = await api.get(`/v1/accounts/${a}/balances`, 'alice', { asOf: instant });
      expect(res.statusCode, res.body).toBe(200);
      return bodyOf(res);
    };
    const first = records[0] as JournalRecord;
    const before = new Date(Date.parse(first.committedAt) - 1).toISOString();
    expect(await asOf(before)).toEqual({
      accountId: a,
      asOf: before,
      balance: 0,
      available: 0,
      sequence: 0,
    });
    for (const [i, record] of records.entries()) {
      const next = records[i + 1];
      if (next && next.committedAt === record.committedAt) continue;
      expect(await asOf(record.committedAt)).toMatchObject({
        balance: record.balanceAfter,
        available: record.availableAfter,
        sequence: record.sequence,
      });
    }
    expect(await asOf(new Date().toISOString())).toMatchObject({ balance: 73, sequence: 4 });
  });
});

describe('holds in the journal', () => {
  it('records place, capture, void and expiry with their deltas and ids', async () => {
    const a = await api.account(1_000);
    const place = async (amount: number, expiresInSeconds = 600) =>
      String(
        bodyOf(
          await api.post(`/v1/accounts/${a}/holds`, {
            amount,
            currency: 'EUR',
            expiresInSeconds,
          }),
        ).id,
      );
    const captured = await place(300);
    const capture = await api.post(`/v1/holds/${captured}/captures`, { amount: 200 });
    expect(capture.statusCode).toBe(200);
    const voided = await place(50);
    await api.post(`/v1/holds/${voided}/voids`, {});
    const expiring = await place(40, 1);
    const later = new Date(Date.now() + 5_000);
    await composeSweeper({
      ...testSweeper({ tableName }),
      dynamo: client,
      clock: () => later,
      log: silentLog,
    })();

    const records = await api.caughtUp(a);
    expectExactJournal(records, { ...(await api.money(a)), version: await api.version(a) });
    const captureEntry = (await api.entries(a)).find((e) => e.type === 'capture');
    expect(
      records.slice(1).map(({ kind, balanceDelta, availableDelta, holdId, entryId }) => ({
        kind,
        balanceDelta,
        availableDelta,
        holdId,
        entryId,
      })),
    ).toEqual([
      {
        kind: 'hold_placed',
        balanceDelta: 0,
        availableDelta: -300,
        holdId: captured,
        entryId: undefined,
      },
      {
        kind: 'capture',
        balanceDelta: -200,
        availableDelta: 100,
        holdId: captured,
        entryId: captureEntry?.id,
      },
      {
        kind: 'hold_placed',
        balanceDelta: 0,
        availableDelta: -50,
        holdId: voided,
        entryId: undefined,
      },
      {
        kind: 'hold_released',
        balanceDelta: 0,
        availableDelta: 50,
        holdId: voided,
        entryId: undefined,
      },
      {
        kind: 'hold_placed',
        balanceDelta: 0,
        availableDelta: -40,
        holdId: expiring,
        entryId: undefined,
      },
      {
        kind: 'hold_released',
        balanceDelta: 0,
        availableDelta: 40,
        holdId: expiring,
        entryId: undefined,
      },
    ]);
  });
});

describe('exactly once under stream redelivery', () => {
  it('writes nothing new when a batch is projected twice, and publishes it again', async () => {
    const a = await api.account(500);
    await api.post(`/v1/accounts/${a}/transactions`, { ...credit(20), type: 'debit' });
    const records = await api.caughtUp(a);
    // A second projector instance (a redelivery after a crash) on a client that counts the
    // writes that took effect (a conditional one refused, as a day's sums added already, did not).
    const counting = localDynamoClient(dynamoEndpoint());
    const writes: string[] = [];
    counting.middlewareStack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        if (/Write|Put|Update|Delete/.test(String(context.commandName))) {
          writes.push(String(context.commandName));
        }
        return result;
      },
      { step: 'finalizeRequest', name: 'countWrites' },
    );
    const again = localJournalProjector(
      { config: testConfig({ tableName }), dynamo: counting, sns: topic.sns, topics: topic.topics },
      silentLog,
    );
    await topic.drain();
    for (const batch of [...projector.seen]) {
      expect(await again(batch)).toEqual({ batchItemFailures: [] });
    }
    counting.destroy();
    expect(writes).toEqual([]);
    expect(await api.journal(a)).toEqual(records);
    const republished = (await topic.drain()).filter((e) => e.subject === a);
    expect(republished.map((e) => e.data)).toEqual(records);
  });

  it('publishes every record as a ledger.journal.v1 CloudEvent on the topic', async () => {
    await topic.drain();
    const a = await api.account(70);
    await api.post(`/v1/accounts/${a}/transactions`, credit(5));
    const records = await api.caughtUp(a);
    let events: Awaited<ReturnType<JournalTopic['drain']>> = [];
    const deadline = Date.now() + 10_000;
    while (events.length < records.length && Date.now() < deadline) {
      events = [...events, ...(await topic.drain()).filter((e) => e.subject === a)];
    }
    const byId = new Map(events.map((e) => [e.id, e]));
    expect([...byId.keys()].sort()).toEqual([`${a}:0000000000000001`, `${a}:0000000000000002`]);
    expect(byId.get(`${a}:0000000000000002`)).toEqual({
      specversion: '1.0',
      id: `${a}:0000000000000002`,
      source: 'urn:idempotent-ledger:local',
      type: 'ledger.journal.v1',
      subject: a,
      sequence: '0000000000000002',
      time: records[1]?.committedAt,
      data: records[1],
    });
  });
});

describe('accounts older than the journal', () => {
  it('start at their first change after the upgrade, record 1 flagged opening', async () => {
    const id = randomUUID();
    const at = new Date(Date.now() - 60_000).toISOString();
    // As the code before the journal wrote it: no version, no marker.
    await client.send(
      new PutItemCommand({
        TableName: tableName,
        Item: marshall({
          pk: `ACCOUNT#${id}`,
          sk: 'ACCOUNT',
          kind: 'account',
          id,
          ownerId: 'alice',
          currency: 'EUR',
          balance: 500,
          available: 450,
          createdAt: at,
          updatedAt: at,
        }),
      }),
    );
    expect(await api.version(id)).toBe(0);
    const untouched = await api.get(`/v1/accounts/${id}/balances`, 'alice', {
      asOf: new Date(Date.parse(at) - 1000).toISOString(),
    });
    expect(untouched.statusCode).toBe(400);
    await api.post(`/v1/accounts/${id}/transactions`, credit(25));
    const records = await api.caughtUp(id);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      sequence: 1,
      opening: true,
      balanceDelta: 25,
      balanceAfter: 525,
      availableAfter: 475,
    });
    const before = await api.get(`/v1/accounts/${id}/balances`, 'alice', { asOf: at });
    expect(before.statusCode).toBe(400);
    expect(bodyOf(before)).toMatchObject({ code: 'validation_failed' });
    const now = await api.get(`/v1/accounts/${id}/balances`, 'alice', {
      asOf: new Date().toISOString(),
    });
    expect(bodyOf(now)).toMatchObject({ balance: 525, available: 475, sequence: 1 });
  });
});

describe('the journal routes', () => {
  it('page ascending with nextAfterSequence, null at the end', async () => {
    const a = await api.account(1);
    for (const amount of [2, 3, 4])
      await api.post(`/v1/accounts/${a}/transactions`, credit(amount));
    await api.caughtUp(a);
    const page = (afterSequence: string, limit: string) =>
      api.get(`/v1/accounts/${a}/journal`, 'alice', { afterSequence, limit }).then(bodyOf);
    const first = await page('0', '3');
    expect((first.items as JournalRecord[]).map((r) => r.sequence)).toEqual([1, 2, 3]);
    expect(first.nextAfterSequence).toBe(3);
    const last = await page('3', '3');
    expect((last.items as JournalRecord[]).map((r) => r.sequence)).toEqual([4]);
    expect(last.nextAfterSequence).toBeNull();
    expect(await page('4', '100')).toEqual({ items: [], nextAfterSequence: null });
    const byDefault = await api.get(`/v1/accounts/${a}/journal`).then(bodyOf);
    expect((byDefault.items as unknown[]).length).toBe(4);
  });

  it('refuse bad input with 400 and foreign or unknown accounts with 404; readers read all', async () => {
    const a = await api.account(10);
    await api.caughtUp(a);
    const status = async (path: string, query: Record<string, string>, as = 'alice') =>
      (await api.get(`/v1/accounts/${a}/${path}`, as, query)).statusCode;
    const badQueries: Record<string, string>[] = [
      { afterSequence: '-1' },
      { afterSequence: '1.5' },
      { afterSequence: 'x' },
      { limit: '0' },
      { limit: '1001' },
    ];
    for (const query of badQueries) {
      expect(await status('journal', query), JSON.stringify(query)).toBe(400);
    }
    expect(await status('journal', { limit: '1000' })).toBe(200);
    const future = new Date(Date.now() + 60_000).toISOString();
    for (const asOf of ['yesterday', '2026-13-01T00:00:00Z', '2026-12-01', future]) {
      expect(await status('balances', { asOf }), asOf).toBe(400);
    }
    expect(await status('balances', {})).toBe(400);
    const now = { asOf: new Date().toISOString() };
    expect(await status('journal', {}, 'mallory')).toBe(404);
    expect(await status('balances', now, 'mallory')).toBe(404);
    expect(await status('journal', {}, 'auditor')).toBe(200);
    expect(await status('balances', now, 'auditor')).toBe(200);
    const unknown = await api.get(`/v1/accounts/${randomUUID()}/journal`, 'auditor');
    expect(unknown.statusCode).toBe(404);
  });
});
