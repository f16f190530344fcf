import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type EventSpec, ledgerEvent, sqsEvent, sqsRecord } from '../../../kit/ledger-events';
import { useLedgerFixture } from '../fixture';

/** ledger.transfer.v1 through the real consumer on DynamoDB Local (docs/contract.md §6, §10). */

const fixture = useLedgerFixture();
const { api, consume, deadLetters } = fixture;

const transfer = (spec: Omit<EventSpec, 'type'>) =>
  JSON.stringify(ledgerEvent({ type: 'ledger.transfer.v1', id: randomUUID(), ...spec }));
const batch = (...bodies: string[]) =>
  consume(sqsEvent(...bodies.map((body, i) => sqsRecord(body, `m-${i}`))));

describe('ledger.transfer.v1', () => {
  it('moves money once, shows both legs with origin event, and acknowledges a duplicate', async () => {
    const [a, b] = [await api.account(1_000), await api.account()];
    const body = transfer({ subject: a, toAccountId: b, amount: 300, sequence: 1 });
    expect((await batch(body, body)).batchItemFailures).toEqual([]);
    expect((await batch(body)).batchItemFailures).toEqual([]);
    expect(await api.money(a)).toEqual({ balance: 700, available: 700 });
    expect(await api.money(b)).toEqual({ balance: 300, available: 300 });
    const [out] = await api.entries(a);
    const [incoming] = await api.entries(b);
    expect(out).toMatchObject({ type: 'transfer_out', origin: 'event', counterpartyAccountId: b });
    expect(incoming).toMatchObject({
      type: 'transfer_in',
      origin: 'event',
      transferId: out?.transferId,
    });
    const read = await api.get(`/v1/transfers/${out?.transferId}`);
    expect(JSON.parse(read.body)).toMatchObject({ fromAccountId: a, toAccountId: b, amount: 300 });
    expect(deadLetters).toEqual([]);
  });

  it.each([
    ['another owner', 'owner_mismatch'],
    ['an unknown destination', 'unknown_account'],
    ['an unknown source', 'unknown_account'],
    ['itself', 'schema_invalid'],
    ['more than is available (money on hold)', 'insufficient_funds'],
    ['another currency', 'currency_mismatch'],
  ])('dead-letters a transfer to %s as %s, changing nothing', async (name, code) => {
    const a = await api.account(500);
    const held = await api.post(`/v1/accounts/${a}/holds`, {
      amount: 300,
      currency: 'EUR',
      expiresInSeconds: 600,
    });
    expect(held.statusCode).toBe(201);
    const destination: Record<string, () => Promise<string>> = {
      'another owner': () => api.account(0, 'EUR', 'bob'),
      'an unknown destination': async () => randomUUID(),
      itself: async () => a,
      'another currency': () => api.account(0, 'USD'),
    };
    const to = await (destination[name] ?? (() => api.account()))();
    const subject = name === 'an unknown source' ? randomUUID() : a;
    const amount = name.startsWith('more than') ? 201 : 100;
    const body = transfer({ subject, toAccountId: to, amount });
    expect((await batch(body)).batchItemFailures).toEqual([]);
    expect(deadLetters.map((l) => l.code)).toEqual([code]);
    expect(deadLetters[0]?.body).toBe(body);
    expect(await api.money(a)).toEqual({ balance: 500, available: 200 });
  });

  it('shares the source paymentId namespace with credits and debits', async () => {
    const [a, b] = [await api.account(500), await api.account()];
    const debit = { type: 'debit', amount: 1, currency: 'EUR', paymentId: 'inv-9' };
    expect((await api.post(`/v1/accounts/${a}/transactions`, debit)).statusCode).toBe(201);
    await batch(transfer({ subject: a, toAccountId: b, amount: 5, paymentId: 'inv-9' }));
    expect(deadLetters.map((l) => l.code)).toEqual(['payment_id_conflict']);
  });
});

describe('lanes: a transfer touches two accounts', () => {
  it('a batch of opposing transfers and credits on both accounts: no deadlock, no lost update', async () => {
    const [a, b] = [await api.account(10_000), await api.account(10_000)];
    const bodies = Array.from({ length: 30 }, (_, i) => {
      if (i % 3 === 2) {
        return JSON.stringify(ledgerEvent({ id: randomUUID(), subject: i % 2 ? a : b, amount: 7 }));
      }
      const [from, to] = i % 2 ? [a, b] : [b, a];
      return transfer({ subject: from, toAccountId: to, amount: 10 + i });
    });
    // Two consumers at once, each with the whole batch (SQS may deliver a message twice). A
    // record whose lane reaches the consumer's deadline unstarted is reported and redelivered,
    // as SQS would: on a loaded machine some are; a deadlock would leave them failing for good.
    const byId = new Map(bodies.map((body, i) => [`m-${i}`, body]));
    let pending = [...byId.keys()];
    for (let round = 0; round < 4 && pending.length > 0; round++) {
      const records = pending.map((id) => sqsRecord(byId.get(id) as string, id));
      const answers = await Promise.all([
        consume(sqsEvent(...records)),
        consume(sqsEvent(...records)),
      ]);
      pending = [
        ...new Set(answers.flatMap((a) => a.batchItemFailures.map((f) => f.itemIdentifier))),
      ];
    }
    expect(pending).toEqual([]);
    expect(deadLetters).toEqual([]);
    const credits = bodies.filter((b) => b.includes('ledger.credit.v1')).length * 7;
    const [ma, mb] = [await api.money(a), await api.money(b)];
    expect(ma.balance + mb.balance).toBe(20_000 + credits);
    expect(ma.balance).toBe(ma.available);
    const legs = (await api.entries(a)).filter((e) => String(e.type).startsWith('transfer'));
    expect(legs).toHaveLength(20);
  });
});
