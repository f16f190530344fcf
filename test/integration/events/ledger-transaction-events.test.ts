import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type EventSpec, ledgerEvent, sqsEvent, sqsRecord } from '../../../kit/ledger-events';
import { bodyOf } from '../../support/ledger-api';
import { useLedgerFixture } from '../fixture';

/** ledger.transaction.v1 and event metadata through the real consumer (docs/contract.md §6, §16). */
const fixture = useLedgerFixture();
const { api, consume, deadLetters } = fixture;

type Leg = { accountId: string; direction: 'debit' | 'credit'; amount: number };
const transaction = (legs: Leg[], spec: Partial<EventSpec> = {}) =>
  JSON.stringify(
    ledgerEvent({
      type: 'ledger.transaction.v1',
      id: randomUUID(),
      subject: legs.find((l) => l.direction === 'debit')?.accountId ?? legs[0]?.accountId ?? '',
      legs,
      ...spec,
    }),
  );
const batch = (...bodies: string[]) =>
  consume(sqsEvent(...bodies.map((body, i) => sqsRecord(body, `m-${i}`))));

describe('ledger.transaction.v1', () => {
  it('applies every leg once, with origin event and metadata, and acknowledges a duplicate', async () => {
    const [payer, x, y] = [await api.account(1_000), await api.account(), await api.account()];
    const body = transaction(
      [
        { accountId: payer, direction: 'debit', amount: 300 },
        { accountId: x, direction: 'credit', amount: 200 },
        { accountId: y, direction: 'credit', amount: 100 },
      ],
      { sequence: 1, paymentId: 'evt-pay', metadata: { batch: 'b-1' } },
    );
    expect((await batch(body, body)).batchItemFailures).toEqual([]);
    expect((await batch(body)).batchItemFailures).toEqual([]);
    expect(deadLetters).toEqual([]);
    expect(await api.money(payer)).toEqual({ balance: 700, available: 700 });
    expect(await api.money(x)).toEqual({ balance: 200, available: 200 });
    const [debit] = await api.entries(payer);
    expect(debit).toMatchObject({
      type: 'ledger_debit',
      origin: 'event',
      paymentId: 'evt-pay',
      metadata: { batch: 'b-1' },
    });
    const [credit] = await api.entries(y);
    expect(credit).toMatchObject({
      type: 'ledger_credit',
      ledgerTransactionId: debit?.ledgerTransactionId,
    });
    const read = await api.get(`/v1/ledger-transactions/${debit?.ledgerTransactionId}`);
    expect(bodyOf(read)).toMatchObject({ currency: 'EUR', metadata: { batch: 'b-1' } });
    // The subject's sequence is tracked, as for any event about it.
    const sources = bodyOf(await api.get(`/v1/accounts/${payer}/event-sources`));
    expect(sources.items).toEqual([expect.objectContaining({ lastSequence: 1 })]);
  });

  it.each([
    ['an account of another owner among the legs', 'owner_mismatch'],
    ['an unknown account among the legs', 'unknown_account'],
    ['legs that do not sum alike', 'schema_invalid'],
    ['a subject that is not the first debited account', 'schema_invalid'],
    ['a leg the payer cannot cover', 'insufficient_funds'],
    ['a closed account among the legs', 'account_closed'],
    ['an account twice', 'schema_invalid'],
  ])('dead-letters %s as %s, changing nothing', async (name, code) => {
    const [payer, x] = [await api.account(100), await api.account()];
    const foreign = await api.account(0, 'EUR', 'mallory');
    const closed = await api.account();
    expect((await api.post(`/v1/accounts/${closed}/close`, {})).statusCode).toBe(200);
    const legs: Record<string, Leg[]> = {
      'an account of another owner among the legs': [
        { accountId: payer, direction: 'debit', amount: 10 },
        { accountId: foreign, direction: 'credit', amount: 10 },
      ],
      'an unknown account among the legs': [
        { accountId: payer, direction: 'debit', amount: 10 },
        { accountId: randomUUID(), direction: 'credit', amount: 10 },
      ],
      'legs that do not sum alike': [
        { accountId: payer, direction: 'debit', amount: 10 },
        { accountId: x, direction: 'credit', amount: 9 },
      ],
      'a subject that is not the first debited account': [
        { accountId: payer, direction: 'debit', amount: 10 },
        { accountId: x, direction: 'credit', amount: 10 },
      ],
      'a leg the payer cannot cover': [
        { accountId: payer, direction: 'debit', amount: 101 },
        { accountId: x, direction: 'credit', amount: 101 },
      ],
      'a closed account among the legs': [
        { accountId: payer, direction: 'debit', amount: 10 },
        { accountId: closed, direction: 'credit', amount: 10 },
      ],
      'an account twice': [
        { accountId: payer, direction: 'debit', amount: 10 },
        { accountId: payer, direction: 'credit', amount: 10 },
      ],
    };
    const subject = name.startsWith('a subject') ? { subject: x } : {};
    const body = transaction(legs[name] ?? [], subject);
    expect((await batch(body)).batchItemFailures).toEqual([]);
    expect(deadLetters.map((l) => l.code)).toEqual([code]);
    expect(await api.money(payer)).toEqual({ balance: 100, available: 100 });
    expect(await api.money(x)).toEqual({ balance: 0, available: 0 });
  });

  it('runs records that share any leg account one after another in a batch', async () => {
    const [a, b, c] = [await api.account(100), await api.account(), await api.account()];
    // The second record needs the money the first one moved to b.
    const first = transaction([
      { accountId: a, direction: 'debit', amount: 100 },
      { accountId: b, direction: 'credit', amount: 60 },
      { accountId: c, direction: 'credit', amount: 40 },
    ]);
    const second = transaction([
      { accountId: b, direction: 'debit', amount: 60 },
      { accountId: a, direction: 'credit', amount: 60 },
    ]);
    expect((await batch(first, second)).batchItemFailures).toEqual([]);
    expect(deadLetters).toEqual([]);
    expect(await api.money(a)).toEqual({ balance: 60, available: 60 });
    expect(await api.money(b)).toEqual({ balance: 0, available: 0 });
  });
});

describe('metadata on credit, debit and transfer events', () => {
  it('is stored on the entries and part of the inbox hash', async () => {
    const [a, b] = [await api.account(), await api.account()];
    const id = randomUUID();
    const credit = ledgerEvent({ id, subject: a, amount: 50, metadata: { k: 'v' } });
    expect((await batch(JSON.stringify(credit))).batchItemFailures).toEqual([]);
    const [entry] = await api.entries(a);
    expect(entry).toMatchObject({ type: 'credit', metadata: { k: 'v' } });
    // The same (source, id) with other metadata is other content: id_conflict.
    const changed = { ...credit, data: { ...(credit.data as object), metadata: { k: 'w' } } };
    await batch(JSON.stringify(changed));
    expect(deadLetters.map((l) => l.code)).toEqual(['id_conflict']);
    const transfer = ledgerEvent({
      type: 'ledger.transfer.v1',
      subject: a,
      toAccountId: b,
      amount: 20,
      metadata: { leg: 'both' },
    });
    expect((await batch(JSON.stringify(transfer))).batchItemFailures).toEqual([]);
    const [incoming] = await api.entries(b);
    expect(incoming).toMatchObject({ type: 'transfer_in', metadata: { leg: 'both' } });
    const bad = ledgerEvent({ subject: a, metadata: {} });
    await batch(JSON.stringify(bad));
    expect(deadLetters.map((l) => l.code)).toEqual(['id_conflict', 'schema_invalid']);
  });

  it('dead-letters an event on a closed account as account_closed', async () => {
    const account = await api.account();
    expect((await api.post(`/v1/accounts/${account}/close`, {})).statusCode).toBe(200);
    await batch(JSON.stringify(ledgerEvent({ subject: account, amount: 5 })));
    expect(deadLetters.map((l) => l.code)).toEqual(['account_closed']);
    expect(await api.money(account)).toEqual({ balance: 0, available: 0 });
  });
});
