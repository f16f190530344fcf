import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLog } from '../../../functions/domain/shared/log';
import type { DaySums } from '../../../functions/domain/statements/days';
import { createDaySumsStore, readEffectiveDays } from '../../../functions/dynamodb/statements/days';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { localJournalProjector } from '../../../local/functions';
import { testConfig } from '../../support/config';
import { type JournalFixture, startJournalFixture } from '../../support/journal/journal-fixture';
import { bodyOf, ledgerApi } from '../../support/ledger-api';

/**
 * docs/contract.md §31, §36 on DynamoDB Local with the projector on the table's stream: once the
 * projector has added an account's day sums and they settled, a statement and an effective
 * balance read only partial days from the effective index (counted on the client), and answer
 * what reading every entry answers; before they settled, they answer the same; a redelivered
 * batch adds nothing twice.
 */
let fixture: JournalFixture;
beforeAll(async () => {
  fixture = await startJournalFixture();
});
afterAll(() => fixture?.close());

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** Index items the client reads from now on (ScannedCount of every Query of `effective`). */
function countIndexReads(): { read: () => number; stop: () => void } {
  let scanned = 0;
  const name = `countIndexReads${Math.random()}`;
  fixture.client.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      const input = args.input as { IndexName?: string };
      if (context.commandName === 'QueryCommand' && input.IndexName === 'effective') {
        scanned += (result.output as { ScannedCount?: number }).ScannedCount ?? 0;
      }
      return result;
    },
    { step: 'initialize', name },
  );
  return { read: () => scanned, stop: () => fixture.client.middlewareStack.remove(name) };
}

/** The month's day items once they hold `entries` entries (the projector runs behind). */
async function daysOf(accountId: string, month: string, entries: number): Promise<DaySums[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const days = await readEffectiveDays(fixture.client, fixture.tableName, accountId, month);
    if (days.reduce((n, d) => n + d.entries, 0) >= entries || Date.now() > deadline) return days;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('day sums (docs/contract.md §31, §36)', () => {
  it('bound the index reads of statements and effective balances, exactly', async () => {
    const { api } = fixture;
    const id = await api.account();
    // Last month: one movement a day at 09:00, and at 01:00 and 17:00 too on the days the reads
    // below cut (the 2nd, 15th and 20th); every third a debit.
    const today = new Date();
    const start = Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 1);
    const end = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1);
    const times: number[] = [];
    for (let day = start; day < end; day += DAY) {
      const cut = [1, 14, 19].includes((day - start) / DAY);
      times.push(...(cut ? [1, 9, 17] : [9]).map((hour) => day + hour * HOUR));
    }
    const moves = times.map((t, i) => ({
      effectiveAt: new Date(t).toISOString(),
      signed: i % 3 === 2 ? -(i + 1) : i + 1,
    }));
    for (const { effectiveAt, signed } of moves) {
      const type = signed < 0 ? 'debit' : 'credit';
      const body = { type, amount: Math.abs(signed), currency: 'EUR', effectiveAt };
      const res = await api.post(`/v1/accounts/${id}/transactions`, body);
      expect(res.statusCode, res.body).toBe(201);
    }
    const days = await daysOf(id, new Date(start).toISOString().slice(0, 7), moves.length);
    expect(days.reduce((n, d) => n + d.entries, 0)).toBe(moves.length);
    const sum = (pick: (t: string) => boolean) =>
      moves.filter((m) => pick(m.effectiveAt)).reduce((s, m) => s + m.signed, 0);

    // Day sums trusted as soon as added (DAY_SUMS_SETTLE_SECONDS=0): the index here never trails.
    const settled = ledgerApi(
      composeHttpHandler({
        dynamo: fixture.client,
        config: { ...fixture.config, daySumsSettleSeconds: 0 },
        callbackSecrets: staticCallbackSecrets('{}'),
        log: silentLog,
      }),
    );
    const counter = countIndexReads();
    const at = new Date(start + 14 * DAY + 12 * HOUR).toISOString();
    const balance = await settled.get(`/v1/accounts/${id}/balances`, 'alice', { effectiveAt: at });
    expect(bodyOf(balance).balance).toBe(sum((t) => t <= at));
    const from = new Date(start + DAY + 5 * HOUR).toISOString();
    const to = new Date(start + 19 * DAY + 13 * HOUR).toISOString();
    const res = await settled.get(`/v1/accounts/${id}/statement`, 'alice', {
      from,
      to,
      limit: '1',
    });
    counter.stop();
    expect(res.statusCode, res.body).toBe(200);
    const credits = moves.filter(
      (m) => m.effectiveAt >= from && m.effectiveAt < to && m.signed > 0,
    );
    expect(bodyOf(res)).toMatchObject({
      openingBalance: sum((t) => t < from),
      closingBalance: sum((t) => t < to),
      totalCredits: credits.reduce((s, m) => s + m.signed, 0),
    });
    // The balance's partial day (3), the statement's split day and last day (3 + 3) and its
    // page of 1 (+ 1 to know there is more): never the month's ${moves.length} entries.
    expect(counter.read()).toBeLessThanOrEqual(3 + 6 + 2);
    // Within the default 300 s of the projector's additions: every day read from the index.
    const fresh = countIndexReads();
    const now = await api.get(`/v1/accounts/${id}/statement`, 'alice', { from, to, limit: '1' });
    fresh.stop();
    expect(bodyOf(now)).toEqual(bodyOf(res));
    expect(fresh.read()).toBeGreaterThanOrEqual(moves.filter((m) => m.effectiveAt < to).length);
  });

  it('adds nothing twice when the projector sees its batches again', async () => {
    const { api, projector, topic } = fixture;
    const id = await api.account();
    const effectiveAt = new Date(Date.now() - 3 * DAY).toISOString();
    for (const amount of [4, 6]) {
      const body = { type: 'credit', amount, currency: 'EUR', effectiveAt };
      expect((await api.post(`/v1/accounts/${id}/transactions`, body)).statusCode).toBe(201);
    }
    const before = await daysOf(id, effectiveAt.slice(0, 7), 2);
    expect(before).toMatchObject([
      { day: effectiveAt.slice(0, 10), credits: 10, debits: 0, entries: 2 },
    ]);
    const again = localJournalProjector(
      {
        config: testConfig({ tableName: fixture.tableName }),
        dynamo: fixture.client,
        sns: topic.sns,
        topics: topic.topics,
      },
      silentLog,
    );
    for (const batch of [...projector.seen]) {
      expect(await again(batch)).toEqual({ batchItemFailures: [] });
    }
    expect(
      await readEffectiveDays(fixture.client, fixture.tableName, id, effectiveAt.slice(0, 7)),
    ).toEqual(before);
  });

  it('add each update to each day once, whatever was added before a crash', async () => {
    const store = createDaySumsStore({ client: fixture.client, tableName: fixture.tableName });
    const id = `guard-${Date.now()}`;
    const day = (d: string, credits: number) => ({ day: d, credits, debits: 0, entries: 1 });
    const at = new Date().toISOString();
    await store.addDays(id, 1, 1, [day('2026-01-05', 10), day('2026-01-06', 20)], at);
    // Update 2 added to the 5th, then the projector crashed before the 6th.
    await store.addDays(id, 2, 3, [day('2026-01-05', 1)], at);
    // The stream retries update 2 whole, and redelivers update 1.
    await store.addDays(id, 2, 3, [day('2026-01-05', 1), day('2026-01-06', 2)], at);
    await store.addDays(id, 1, 1, [day('2026-01-05', 10), day('2026-01-06', 20)], at);
    const days = await readEffectiveDays(fixture.client, fixture.tableName, id, '2026-01');
    expect(days.map(({ addedAt: _, ...d }) => d)).toEqual([
      { day: '2026-01-05', credits: 11, debits: 0, entries: 2 },
      { day: '2026-01-06', credits: 22, debits: 0, entries: 2 },
    ]);
  });

  // Last here: it stops the projector. Needs a day of this month before today, and today's
  // credits and the read 6 minutes on on the same day (not within 10 minutes of midnight, UTC).
  const msOfDay = Date.now() % DAY;
  const offDay = new Date().getUTCDate() === 1 || msOfDay < 600_000 || msOfDay > DAY - 600_000;
  it.skipIf(offDay)(
    'count the days the projector has not reached from the index, still bounded',
    async () => {
      const { api, projector } = fixture;
      const id = await api.account();
      const now = Date.now();
      const monthStart = Date.parse(`${new Date(now).toISOString().slice(0, 7)}-01T00:00:00.000Z`);
      const today = Date.parse(`${new Date(now).toISOString().slice(0, 10)}T00:00:00.000Z`);
      const credit = async (effectiveAt: number, amount: number) => {
        const body = { type: 'credit', amount, currency: 'EUR' };
        const dated = { ...body, effectiveAt: new Date(effectiveAt).toISOString() };
        const res = await api.post(`/v1/accounts/${id}/transactions`, dated);
        expect(res.statusCode, res.body).toBe(201);
      };
      let entries = 0;
      for (let day = monthStart; day < today; day += DAY) {
        for (const hour of [8, 9, 10]) await credit(day + hour * HOUR, ++entries);
      }
      await credit(now - 120_000, ++entries);
      await daysOf(id, new Date(now).toISOString().slice(0, 7), entries);
      await projector.stop();
      await credit(now - 60_000, ++entries); // never projected
      // Read 6 minutes on: the day items settled (300 s), today counted from the index.
      const later = ledgerApi(
        composeHttpHandler({
          dynamo: fixture.client,
          config: fixture.config,
          callbackSecrets: staticCallbackSecrets('{}'),
          log: silentLog,
          clock: () => new Date(Date.now() + 360_000),
        }),
      );
      const counter = countIndexReads();
      const query = { from: new Date(monthStart).toISOString(), to: new Date(now).toISOString() };
      const res = await later.get(`/v1/accounts/${id}/statement`, 'alice', {
        ...query,
        limit: '1',
      });
      counter.stop();
      expect(res.statusCode, res.body).toBe(200);
      expect(bodyOf(res)).toMatchObject({ totalCredits: (entries * (entries + 1)) / 2 });
      // Today's 2 entries counted and summed, the page of 1 (+ 1): not the month's entries.
      expect(counter.read()).toBeLessThanOrEqual(2 + 2 + 2);
    },
  );
});
