import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpHandler } from '../../../functions/api/types';
import { localWebhookSecurity } from '../../../functions/aws/webhook-security';
import { LOCAL_STAGE } from '../../../functions/contract/journal';
import { silentLog } from '../../../functions/domain/shared/log';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import { composeWebhookDeliveryHandler } from '../../../functions/handlers/webhooks/compose';
import type { WebhookDeliveryHandler } from '../../../functions/handlers/webhooks/consumer';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { journalApi } from '../../support/journal/journal';
import { type JournalFixture, startJournalFixture } from '../../support/journal/journal-fixture';
import { bodyOf } from '../../support/ledger-api';
import { memoryWebhookQueue, sqsEventOf } from '../../support/webhooks/pump';
import { type Received, startReceiver } from '../../support/webhooks/receiver';

/**
 * docs/contract.md §32 on a real table, its journal projected from the real stream and
 * published on the (emulated) topic, delivered to a real loopback receiver: order per account,
 * Standard Webhooks signatures, retries that keep their webhook-id, rotation, disabling.
 */
let fixture: JournalFixture;
let app: HttpHandler;
let api: ReturnType<typeof journalApi>;
let deliver: WebhookDeliveryHandler;
let pump: ReturnType<typeof memoryWebhookQueue>;
const DISABLE_AFTER = 6;

beforeAll(async () => {
  fixture = await startJournalFixture();
  pump = memoryWebhookQueue();
  const base = { dynamo: fixture.client, log: silentLog };
  app = composeHttpHandler({
    ...base,
    config: fixture.config,
    callbackSecrets: staticCallbackSecrets('{}'),
    webhookQueue: pump.queue,
  });
  api = journalApi(app);
  deliver = composeWebhookDeliveryHandler({
    ...base,
    config: {
      ...fixture.config,
      webhookQueueUrl: 'http://unused.invalid/queue',
      webhookSealingKeyArn: 'arn:aws:secretsmanager:local:0:secret:unused',
      stage: LOCAL_STAGE,
      // Retries wait 1, 2, 4 s (the jitter at its top); a 4th would come 15 s after the first.
      retries: { baseDelaySeconds: 1, maxDelaySeconds: 8, retryWindowSeconds: 10 },
      disableAfterFailures: DISABLE_AFTER,
    },
    security: localWebhookSecurity(),
    queue: pump.queue,
    clock: pump.clock,
    random: () => 1,
  });
});
afterAll(() => fixture?.close());

/** Hands the topic's events to the delivery function, then every wake until none is left. */
async function pumpAll(...accounts: string[]) {
  for (const account of accounts) await api.caughtUp(account);
  const events = await waitForMonitorEvents(await fixture.topic.drain());
  const result = await deliver(sqsEventOf(events.map((e) => JSON.stringify(e))));
  expect(result.batchItemFailures).toEqual([]);
  await pump.runAll(deliver);
  return events;
}

/** Monitor events follow their records on the topic: one more short read catches them. */
async function waitForMonitorEvents<T>(events: T[]): Promise<T[]> {
  await new Promise((resolve) => setTimeout(resolve, 200));
  return [...events, ...((await fixture.topic.drain()) as T[])];
}

async function endpoint(url: string, events: string[], accountIds?: string[]) {
  const res = await api.post('/v1/webhook-endpoints', {
    url,
    events,
    ...(accountIds ? { accountIds } : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
  return bodyOf(res) as { id: string; secret: string };
}

const idOf = (r: Received) => String(r.headers['webhook-id']);
const verifies = (secret: string, r: Received) =>
  new Webhook(secret).verify(r.body, r.headers as Record<string, string>);

describe('webhook delivery (docs/contract.md §32)', () => {
  it('delivers every event in order per account, signed, through 3 failures', async () => {
    const receiver = await startReceiver((i) => (i < 3 ? 500 : 204));
    const a = await api.account();
    const b = await api.account();
    const monitor = { field: 'available', operator: 'lt', value: 100 };
    expect((await api.post(`/v1/accounts/${a}/monitors`, monitor)).statusCode).toBe(201);
    const hook = await endpoint(receiver.url, ['*'], [a, b]);
    const post = (acct: string, type: string, amount: number) =>
      api.post(`/v1/accounts/${acct}/transactions`, { type, amount, currency: 'EUR' });
    for (const [acct, type, amount] of [
      [a, 'credit', 500],
      [b, 'credit', 7],
      [a, 'debit', 450],
      [b, 'credit', 8],
      [a, 'credit', 200],
    ] as const) {
      expect((await post(acct, type, amount)).statusCode).toBe(201);
    }
    const published = await pumpAll(a, b);
    const ours = published.filter((e) => e.subject === a || e.subject === b);
    const ok = receiver.received.filter((r) => r.status === 204);
    // Every event once answered 2xx, each exactly as the topic carried it, each signed.
    expect(ok.map(idOf).sort()).toEqual(ours.map((e) => e.id).sort());
    for (const r of receiver.received) expect(verifies(hook.secret, r)).toEqual(JSON.parse(r.body));
    for (const r of ok) expect(JSON.parse(r.body)).toEqual(ours.find((e) => e.id === idOf(r)));
    // Failed attempts were retried under the same webhook-id.
    const failed = receiver.received.filter((r) => r.status === 500);
    expect(failed).toHaveLength(3);
    for (const r of failed) expect(ok.map(idOf)).toContain(idOf(r));
    // Journal order per account, each monitor event right after its record.
    for (const acct of [a, b]) {
      const sent = ok.map((r) => JSON.parse(r.body)).filter((e) => e.subject === acct);
      // A record, then its monitor events: type ranks within a sequence.
      const order = sent.map((e) => `${e.sequence}:${e.type === 'ledger.journal.v1' ? 0 : 1}`);
      expect(order).toEqual([...order].sort());
      expect(sent.filter((e) => e.type === 'ledger.journal.v1')).toHaveLength(acct === a ? 3 : 2);
    }
    const flips = ok.map((r) => JSON.parse(r.body)).filter((e) => e.type !== 'ledger.journal.v1');
    expect(flips.map((e) => [e.subject, e.data.state, Number(e.sequence)])).toEqual([
      [a, 'false', 1],
      [a, 'true', 2],
      [a, 'false', 3],
    ]);
    const list = bodyOf(await api.get(`/v1/webhook-endpoints/${hook.id}/deliveries`));
    expect((list.items as { status: string }[]).every((d) => d.status === 'succeeded')).toBe(true);
    await receiver.stop();
  });

  it('signs with both secrets while a rotation overlaps', async () => {
    const receiver = await startReceiver();
    const a = await api.account();
    const hook = await endpoint(receiver.url, ['ledger.journal.v1'], [a]);
    const rotation = await api.post(`/v1/webhook-endpoints/${hook.id}/secret-rotations`, {});
    const rotated = String(bodyOf(rotation).secret);
    await api.post(`/v1/accounts/${a}/transactions`, {
      type: 'credit',
      amount: 5,
      currency: 'EUR',
    });
    await pumpAll(a);
    const [only] = receiver.received;
    expect(receiver.received).toHaveLength(1);
    expect(String(only?.headers['webhook-signature']).split(' ')).toHaveLength(2);
    if (!only) throw new Error('nothing received');
    expect(verifies(hook.secret, only)).toBeTruthy();
    expect(verifies(rotated, only)).toBeTruthy();
    await receiver.stop();
  });

  it('disables an endpoint after N failed attempts in a row, resumes it on re-enable', async () => {
    const receiver = await startReceiver(() => 503);
    const a = await api.account();
    const hook = await endpoint(receiver.url, ['ledger.journal.v1'], [a]);
    for (const amount of [1, 2]) {
      await api.post(`/v1/accounts/${a}/transactions`, { type: 'credit', amount, currency: 'EUR' });
    }
    await pumpAll(a);
    // The first event: 4 attempts, then failed; the second: 2 more, 6 in a row, disabled.
    expect(receiver.received).toHaveLength(DISABLE_AFTER);
    const ids = receiver.received.map(idOf);
    expect(ids.map((id) => Number(id.split(':')[1]))).toEqual([1, 1, 1, 1, 2, 2]);
    const path = `/v1/webhook-endpoints/${hook.id}`;
    expect(bodyOf(await api.get(path)).status).toBe('disabled');
    const listed = bodyOf(await api.get(`${path}/deliveries`)).items as { status: string }[];
    expect(listed.map((d) => d.status)).toEqual(['pending', 'failed']);
    await pump.runAll(deliver);
    expect(receiver.received).toHaveLength(DISABLE_AFTER);
    receiver.answerWith(() => 200);
    const enabled = await api.call('PATCH', path, {
      principal: 'alice',
      body: { status: 'enabled' },
    });
    expect(enabled.statusCode, enabled.body).toBe(200);
    await pump.runAll(deliver);
    const ok = receiver.received.filter((r) => r.status === 200).map((r) => JSON.parse(r.body));
    expect(ok.map((e) => Number(e.sequence))).toEqual([2]);
    await receiver.stop();
  });

  it('fails a delivery whose retries ran out, releases the next, lists it, retries it by hand', async () => {
    const receiver = await startReceiver((_, body) =>
      JSON.parse(body).sequence.endsWith('1') ? 500 : 204,
    );
    const a = await api.account();
    const hook = await endpoint(receiver.url, ['ledger.journal.v1'], [a]);
    for (const amount of [1, 2]) {
      await api.post(`/v1/accounts/${a}/transactions`, { type: 'credit', amount, currency: 'EUR' });
    }
    await pumpAll(a);
    const path = `/v1/webhook-endpoints/${hook.id}/deliveries`;
    const all = bodyOf(await api.get(path)).items as Record<string, unknown>[];
    expect(all.map((d) => d.status)).toEqual(['succeeded', 'failed']);
    const [, failed] = all;
    expect(failed).toMatchObject({ lastStatus: 500, nextAttemptAt: null });
    expect(failed?.attempts).toBe(4);
    const onlyFailed = bodyOf(await api.get(path, 'alice', { status: 'failed' })).items;
    expect(onlyFailed).toEqual([failed]);
    const page = bodyOf(await api.get(path, 'alice', { limit: '1' }));
    expect((page.items as unknown[]).length).toBe(1);
    const rest = bodyOf(await api.get(path, 'alice', { cursor: String(page.nextCursor) }));
    expect(rest.items).toEqual([failed]);
    expect((await api.get(path, 'mallory')).statusCode).toBe(404);
    receiver.answerWith(() => 204);
    const retry = await api.post(`${path}/${failed?.id}/retry`, undefined, randomUUID());
    expect(retry.statusCode, retry.body).toBe(202);
    await pump.runAll(deliver);
    const last = receiver.received.at(-1);
    expect([last?.status, last && idOf(last)]).toEqual([204, failed?.eventId]);
    const after = bodyOf(await api.get(path, 'alice', { status: 'succeeded' })).items;
    expect((after as unknown[]).length).toBe(2);
    await receiver.stop();
  });
});
