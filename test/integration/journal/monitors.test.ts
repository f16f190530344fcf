import { randomUUID } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MONITORS_PER_ACCOUNT } from '../../../functions/contract/monitors';
import { silentLog } from '../../../functions/domain/shared/log';
import { localJournalProjector } from '../../../local/functions';
import { testConfig } from '../../support/config';
import type { JournalTopic, journalApi, startProjector } from '../../support/journal';
import { startJournalFixture } from '../../support/journal-fixture';
import { bodyOf } from '../../support/ledger-api';

/** docs/contract.md §28 on a real table, its journal projected from the real stream. */
let client: DynamoDBClient;
let tableName: string;
let topic: JournalTopic;
let projector: Awaited<ReturnType<typeof startProjector>>;
let api: ReturnType<typeof journalApi>;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ client, tableName, topic, projector, api, close } = await startJournalFixture());
});

afterAll(() => close?.());

const post = (account: string, type: 'credit' | 'debit', amount: number) =>
  api.post(`/v1/accounts/${account}/transactions`, { type, amount, currency: 'EUR' });

interface FlipEvent {
  id: string;
  type: string;
  subject: string;
  data: { monitorId: string; state: string; sequence: number; availableAfter: number };
}

async function flipsOf(account: string): Promise<FlipEvent[]> {
  const events = (await topic.drain()) as unknown as FlipEvent[];
  return events.filter((e) => e.type === 'ledger.balance_monitor.v1' && e.subject === account);
}

describe('balance monitors (docs/contract.md §28)', () => {
  it('creates a monitor from the current values, idempotently, for the owner only', async () => {
    const a = await api.account(500);
    const key = randomUUID();
    const body = { field: 'balance', operator: 'lt', value: 100, description: 'low' };
    const created = await api.post(`/v1/accounts/${a}/monitors`, body, key);
    expect(created.statusCode, created.body).toBe(201);
    const monitor = bodyOf(created);
    expect(monitor).toMatchObject({ accountId: a, ...body, state: 'false' });
    expect(monitor.stateSince).toBe(monitor.createdAt);
    const replay = await api.post(`/v1/accounts/${a}/monitors`, body, key);
    expect([replay.statusCode, replay.body, replay.headers['idempotent-replayed']]).toEqual([
      201,
      created.body,
      'true',
    ]);
    const path = `/v1/accounts/${a}/monitors/${String(monitor.id)}`;
    expect(bodyOf(await api.get(path))).toEqual(monitor);
    expect(bodyOf(await api.get(`/v1/accounts/${a}/monitors`)).items).toEqual([monitor]);
    expect((await api.get(path, 'mallory')).statusCode).toBe(404);
    expect(
      (await api.post(`/v1/accounts/${a}/monitors`, body, randomUUID(), 'mallory')).statusCode,
    ).toBe(404);
    expect((await api.call('DELETE', path, { principal: 'mallory' })).statusCode).toBe(404);
    const deleted = await api.call('DELETE', path);
    expect([deleted.statusCode, deleted.body]).toEqual([204, '']);
    expect((await api.call('DELETE', path)).statusCode).toBe(204);
    expect((await api.get(path)).statusCode).toBe(404);
  });

  it('refuses an 11th monitor with monitor_limit_reached, and takes one after a delete', async () => {
    const a = await api.account();
    const body = (value: number) => ({ field: 'available', operator: 'gte', value });
    const ids: string[] = [];
    for (let i = 0; i < MAX_MONITORS_PER_ACCOUNT; i++) {
      const res = await api.post(`/v1/accounts/${a}/monitors`, body(i));
      expect(res.statusCode, res.body).toBe(201);
      ids.push(String(bodyOf(res).id));
    }
    const key = randomUUID();
    const refused = await api.post(`/v1/accounts/${a}/monitors`, body(99), key);
    expect(refused.statusCode).toBe(409);
    expect(bodyOf(refused).code).toBe('monitor_limit_reached');
    // Recorded: the same key replays the refusal.
    expect(
      (await api.post(`/v1/accounts/${a}/monitors`, body(99), key)).headers['idempotent-replayed'],
    ).toBe('true');
    await api.call('DELETE', `/v1/accounts/${a}/monitors/${ids[0]}`);
    expect((await api.post(`/v1/accounts/${a}/monitors`, body(99))).statusCode).toBe(201);
  });

  it('publishes one event per crossing, moves state and stateSince, and none on replays', async () => {
    const a = await api.account(500);
    const created = await api.post(`/v1/accounts/${a}/monitors`, {
      field: 'available',
      operator: 'lt',
      value: 200,
    });
    const monitor = bodyOf(created);
    await api.caughtUp(a);
    await topic.drain();
    // 500 → 350 → 150 (crosses) → 100 → 400 (crosses back) → 300 → 50 (crosses).
    for (const [type, amount] of [
      ['debit', 150],
      ['debit', 200],
      ['debit', 50],
      ['credit', 300],
      ['debit', 100],
      ['debit', 250],
    ] as const) {
      expect((await post(a, type, amount)).statusCode).toBe(201);
    }
    const records = await api.caughtUp(a);
    const deadline = Date.now() + 5_000;
    const flips: FlipEvent[] = [];
    while (flips.length < 3 && Date.now() < deadline) {
      flips.push(...(await flipsOf(a)));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const bySequence = (n: number) => records.find((r) => r.sequence === n);
    expect(flips.map((e) => [e.data.state, e.data.sequence, e.data.availableAfter])).toEqual([
      ['true', 3, 150],
      ['false', 5, 400],
      ['true', 7, 50],
    ]);
    expect(flips.map((e) => e.id)).toEqual(
      [3, 5, 7].map((n) => `${String(monitor.id)}:${String(n).padStart(16, '0')}`),
    );
    const now = bodyOf(await api.get(`/v1/accounts/${a}/monitors/${String(monitor.id)}`));
    expect(now).toMatchObject({ state: 'true', stateSince: bySequence(7)?.committedAt });

    // Every batch the projector has seen, redelivered to a second projector: no second event.
    const again = localJournalProjector(
      { config: testConfig({ tableName }), dynamo: client, sns: topic.sns, topics: topic.topics },
      silentLog,
    );
    for (const batch of [...projector.seen]) {
      expect(await again(batch)).toEqual({ batchItemFailures: [] });
    }
    expect(await flipsOf(a)).toEqual([]);
    expect(bodyOf(await api.get(`/v1/accounts/${a}/monitors/${String(monitor.id)}`))).toEqual(now);
  });
});
