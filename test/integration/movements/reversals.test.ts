import { randomUUID } from 'node:crypto';
import { DeleteItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import type { HttpResult } from '../../../functions/api/types';
import { keys } from '../../../functions/dynamodb/table/keys';
import { TransactionPage } from '../../../functions/schemas/accounts';
import { Reversal } from '../../../functions/schemas/reversals';
import { Problem } from '../../../functions/schemas/shared';
import { bodyOf } from '../../support/ledger-api';
import { useLedgerFixture } from '../fixture';

/** docs/contract.md §16: reversals of entries, transfers and ledger transactions. */
const fixture = useLedgerFixture({
  results: { exists: async () => true, presignGet: async (key) => `https://s3.example/${key}` },
});
const { api } = fixture;

const codeOf = (res: { body: string }) => Problem.parse(JSON.parse(res.body)).code;
const problem = (res: HttpResult) => [res.statusCode, codeOf(res)];

async function post(accountId: string, type: 'credit' | 'debit', amount: number) {
  const res = await api.post(`/v1/accounts/${accountId}/transactions`, {
    type,
    amount,
    currency: 'EUR',
  });
  expect(res.statusCode, res.body).toBe(201);
  return String(bodyOf(res).id);
}

const reverseEntry = (
  accountId: string,
  entryId: string,
  body = {},
  key = randomUUID(),
  as?: string,
) => api.post(`/v1/accounts/${accountId}/transactions/${entryId}/reversals`, body, key, as);
const reverseTransfer = (id: string, body = {}, key = randomUUID()) =>
  api.post(`/v1/transfers/${id}/reversals`, body, key);
const reverseLedger = (id: string, body = {}, key = randomUUID()) =>
  api.post(`/v1/ledger-transactions/${id}/reversals`, body, key);

const entryOf = async (accountId: string, id: string) =>
  TransactionPage.parse({ items: await api.entries(accountId), nextCursor: null }).items.find(
    (e) => e.id === id,
  );

/** Σ of the signed amounts of an account's entries: what its balance must equal. */
async function sumOfEntries(accountId: string): Promise<number> {
  const credits = new Set(['credit', 'transfer_in', 'ledger_credit']);
  return (await api.entries(accountId)).reduce((sum, e) => {
    const credit = e.type === 'reversal' ? e.direction === 'credit' : credits.has(String(e.type));
    return sum + (credit ? Number(e.amount) : -Number(e.amount));
  }, 0);
}

describe('reversals of entries', () => {
  it('moves a credit back in part, then the rest by default; reads show reversedAmount', async () => {
    const account = await api.account();
    const credit = await post(account, 'credit', 100);
    const part = await reverseEntry(account, credit, { amount: 30, reference: 'refund 1' });
    expect(part.statusCode, part.body).toBe(201);
    const reversal = Reversal.parse(bodyOf(part));
    expect(reversal).toMatchObject({
      reversalOf: { kind: 'entry', id: credit },
      amount: 30,
      reference: 'refund 1',
    });
    expect(await api.money(account)).toEqual({ balance: 70, available: 70 });
    expect(await entryOf(account, credit)).toMatchObject({ type: 'credit', reversedAmount: 30 });
    const [entry] = await api.entries(account);
    expect(entry).toMatchObject({
      type: 'reversal',
      direction: 'debit',
      amount: 30,
      reversalOf: { kind: 'entry', id: credit },
      reversalId: reversal.id,
      reference: 'refund 1',
    });

    const rest = await reverseEntry(account, credit);
    expect(rest.statusCode).toBe(201);
    expect(bodyOf(rest)).toMatchObject({ amount: 70 });
    expect(await entryOf(account, credit)).toMatchObject({ reversedAmount: 100 });
    const more = await reverseEntry(account, credit, { amount: 1 });
    expect(problem(more)).toEqual([409, 'reversal_exceeds_original']);
    expect(Problem.parse(bodyOf(more)).detail).toContain('0');
    expect(await api.money(account)).toEqual({ balance: 0, available: 0 });
    expect(await sumOfEntries(account)).toBe(0);
  });

  it('refuses an amount above what is left, naming it, and records it', async () => {
    const account = await api.account();
    const credit = await post(account, 'credit', 100);
    expect((await reverseEntry(account, credit, { amount: 60 })).statusCode).toBe(201);
    const key = randomUUID();
    const over = await reverseEntry(account, credit, { amount: 41 }, key);
    expect(problem(over)).toEqual([409, 'reversal_exceeds_original']);
    expect(Problem.parse(bodyOf(over)).detail).toContain('40');
    const replay = await reverseEntry(account, credit, { amount: 41 }, key);
    expect(replay.body).toBe(over.body);
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  it('moves a debit (an export fee too) and a capture back as credits', async () => {
    const account = await api.account(1_000);
    const debit = await post(account, 'debit', 200);
    expect((await reverseEntry(account, debit)).statusCode).toBe(201);
    expect(await api.money(account)).toEqual({ balance: 1_000, available: 1_000 });

    const task = await api.post(`/v1/accounts/${account}/exports`, { format: 'csv' });
    expect(task.statusCode).toBe(202);
    const fee = (await api.entries(account)).find((e) =>
      String(e.reference).startsWith('export fee'),
    );
    const refund = await reverseEntry(account, String(fee?.id));
    expect(refund.statusCode, refund.body).toBe(201);
    expect(await api.money(account)).toEqual({ balance: 1_000, available: 1_000 });

    const hold = await api.post(`/v1/accounts/${account}/holds`, {
      amount: 300,
      currency: 'EUR',
      expiresInSeconds: 600,
    });
    const captured = await api.post(`/v1/holds/${bodyOf(hold).id}/captures`, { amount: 250 });
    expect(captured.statusCode).toBe(200);
    const capture = (await api.entries(account)).find((e) => e.type === 'capture');
    const back = await reverseEntry(account, String(capture?.id), { amount: 100 });
    expect(back.statusCode, back.body).toBe(201);
    const [entry] = await api.entries(account);
    expect(entry).toMatchObject({ type: 'reversal', direction: 'credit', amount: 100 });
    expect(await api.money(account)).toEqual({ balance: 850, available: 850 });
    expect(await sumOfEntries(account)).toBe(850);
  });

  it('answers not_reversible for reversals and legs, recorded', async () => {
    const [a, b] = [await api.account(500), await api.account()];
    const credit = await post(a, 'credit', 50);
    const reversed = bodyOf(await reverseEntry(a, credit, { amount: 10 }));
    const [reversalEntry] = await api.entries(a);
    expect(reversalEntry?.reversalId).toBe(reversed.id);
    const key = randomUUID();
    const twice = await reverseEntry(a, String(reversalEntry?.id), {}, key);
    expect(problem(twice)).toEqual([409, 'not_reversible']);
    expect(
      (await reverseEntry(a, String(reversalEntry?.id), {}, key)).headers['idempotent-replayed'],
    ).toBe('true');

    const transfer = await api.post('/v1/transfers', {
      fromAccountId: a,
      toAccountId: b,
      amount: 5,
      currency: 'EUR',
    });
    const [out] = await api.entries(a);
    expect(out?.transferId).toBe(bodyOf(transfer).id);
    expect(problem(await reverseEntry(a, String(out?.id)))).toEqual([409, 'not_reversible']);
    const split = await api.ledgerTransaction([
      { accountId: a, direction: 'debit', amount: 5 },
      { accountId: b, direction: 'credit', amount: 5 },
    ]);
    expect(split.statusCode).toBe(201);
    const [legEntry] = await api.entries(b);
    expect(problem(await reverseEntry(b, String(legEntry?.id)))).toEqual([409, 'not_reversible']);
  });

  it('answers 404 for an unknown entry, one of another account and a foreign account, unrecorded', async () => {
    const [a, b] = [await api.account(), await api.account()];
    const credit = await post(a, 'credit', 10);
    const key = randomUUID();
    expect(problem(await reverseEntry(a, randomUUID(), {}, key))).toEqual([404, 'not_found']);
    expect(problem(await reverseEntry(b, credit, {}, key))).toEqual([404, 'not_found']);
    expect(problem(await reverseEntry(a, credit, {}, key, 'mallory'))).toEqual([404, 'not_found']);
    // Nothing recorded: the corrected request with the same key goes ahead.
    expect((await reverseEntry(a, credit, {}, key)).statusCode).toBe(201);
  });

  it('needs the money that goes back: insufficient_funds, or the overdraft; account_closed', async () => {
    const account = await api.account();
    const credit = await post(account, 'credit', 100);
    await post(account, 'debit', 80);
    expect(problem(await reverseEntry(account, credit))).toEqual([409, 'insufficient_funds']);
    expect((await reverseEntry(account, credit, { amount: 20 })).statusCode).toBe(201);

    const overdrawn = await api.accountWith({ overdraftLimit: 50 });
    const income = await post(overdrawn, 'credit', 100);
    await post(overdrawn, 'debit', 100);
    expect((await reverseEntry(overdrawn, income, { amount: 50 })).statusCode).toBe(201);
    expect(await api.money(overdrawn)).toEqual({ balance: -50, available: -50 });
    expect(problem(await reverseEntry(overdrawn, income, { amount: 1 }))).toEqual([
      409,
      'insufficient_funds',
    ]);

    const closing = await api.account();
    const paid = await post(closing, 'credit', 10);
    await post(closing, 'debit', 10);
    expect((await api.post(`/v1/accounts/${closing}/close`, {})).statusCode).toBe(200);
    expect(problem(await reverseEntry(closing, paid))).toEqual([409, 'account_closed']);
  });

  it('finds an entry from before pointers by a bounded Query of its account', async () => {
    const account = await api.account();
    const credit = await post(account, 'credit', 100);
    await post(account, 'credit', 5);
    await fixture.client.send(
      new DeleteItemCommand({
        TableName: fixture.tableName,
        Key: marshall(keys.entryPointer(credit)),
      }),
    );
    expect((await reverseEntry(account, credit, { amount: 40 })).statusCode).toBe(201);
    expect((await reverseEntry(account, credit, { amount: 60 })).statusCode).toBe(201);
    expect(problem(await reverseEntry(account, credit, { amount: 1 }))).toEqual([
      409,
      'reversal_exceeds_original',
    ]);
    expect(await entryOf(account, credit)).toMatchObject({ reversedAmount: 100 });
    expect(await api.money(account)).toEqual({ balance: 5, available: 5 });
  });

  it('never lets racing reversals of one entry add up to more than it moved', async () => {
    const account = await api.account();
    const credit = await post(account, 'credit', 100);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => reverseEntry(account, credit, { amount: 30 })),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    for (const refused of results.filter((r) => r.statusCode !== 201)) {
      expect(problem(refused)).toEqual([409, 'reversal_exceeds_original']);
    }
    expect(await entryOf(account, credit)).toMatchObject({ reversedAmount: 90 });
    expect(await api.money(account)).toEqual({ balance: 10, available: 10 });
    // Racing "all that is left": exactly one reversal takes the last 10.
    const rest = await Promise.all(Array.from({ length: 4 }, () => reverseEntry(account, credit)));
    expect(rest.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(await api.money(account)).toEqual({ balance: 0, available: 0 });
  });
});

describe('reversals of transfers and ledger transactions', () => {
  it('reverses a transfer in part and whole; each leg keeps the transfer summing to zero', async () => {
    const [a, b] = [await api.account(1_000), await api.account()];
    const made = await api.post('/v1/transfers', {
      fromAccountId: a,
      toAccountId: b,
      amount: 300,
      currency: 'EUR',
    });
    const transferId = String(bodyOf(made).id);
    const part = await reverseTransfer(transferId, { amount: 100 });
    expect(part.statusCode, part.body).toBe(201);
    expect(bodyOf(part)).toMatchObject({ reversalOf: { kind: 'transfer', id: transferId } });
    expect(await api.money(a)).toEqual({ balance: 800, available: 800 });
    expect(await api.money(b)).toEqual({ balance: 200, available: 200 });
    const [back] = await api.entries(a);
    expect(back).toMatchObject({
      type: 'reversal',
      direction: 'credit',
      amount: 100,
      transferId,
      counterpartyAccountId: b,
    });
    const [taken] = await api.entries(b);
    expect(taken).toMatchObject({ type: 'reversal', direction: 'debit', transferId });
    expect(bodyOf(await api.get(`/v1/transfers/${transferId}`))).toMatchObject({
      reversedAmount: 100,
    });
    expect((await reverseTransfer(transferId)).statusCode).toBe(201);
    expect(problem(await reverseTransfer(transferId))).toEqual([409, 'reversal_exceeds_original']);
    expect(await api.money(a)).toEqual({ balance: 1_000, available: 1_000 });
    const legs = [...(await api.entries(a)), ...(await api.entries(b))].filter(
      (e) => e.transferId === transferId,
    );
    const signed = legs.map((e) =>
      e.type === 'transfer_in' || e.direction === 'credit' ? Number(e.amount) : -Number(e.amount),
    );
    expect(signed.reduce((x, y) => x + y, 0)).toBe(0);
    expect(problem(await reverseTransfer(randomUUID()))).toEqual([404, 'not_found']);
  });

  it('refuses a transfer reversal the destination cannot cover', async () => {
    const [a, b] = [await api.account(100), await api.account()];
    const made = await api.post('/v1/transfers', {
      fromAccountId: a,
      toAccountId: b,
      amount: 100,
      currency: 'EUR',
    });
    await post(b, 'debit', 90);
    const res = await reverseTransfer(String(bodyOf(made).id));
    expect(problem(res)).toEqual([409, 'insufficient_funds']);
    expect(Problem.parse(bodyOf(res)).detail).toContain(b);
  });

  it('reverses a ledger transaction whole, once', async () => {
    const [payer, x, y] = [await api.account(500), await api.account(), await api.account()];
    const made = await api.ledgerTransaction(
      [
        { accountId: payer, direction: 'debit', amount: 300 },
        { accountId: x, direction: 'credit', amount: 200 },
        { accountId: y, direction: 'credit', amount: 100 },
      ],
      { metadata: { order: '7' } },
    );
    const id = String(bodyOf(made).id);
    expect(problem(await reverseLedger(id, { amount: 10 }))).toEqual([400, 'validation_failed']);
    const whole = await reverseLedger(id, { reference: 'order 7 cancelled' });
    expect(whole.statusCode, whole.body).toBe(201);
    expect(bodyOf(whole)).toMatchObject({
      reversalOf: { kind: 'ledger_transaction', id },
      amount: 300,
    });
    for (const account of [payer, x, y]) {
      const [entry] = await api.entries(account);
      expect(entry).toMatchObject({ type: 'reversal', ledgerTransactionId: id });
    }
    expect(await api.money(payer)).toEqual({ balance: 500, available: 500 });
    expect(await api.money(x)).toEqual({ balance: 0, available: 0 });
    expect(bodyOf(await api.get(`/v1/ledger-transactions/${id}`))).toMatchObject({
      reversedAmount: 300,
    });
    expect(problem(await reverseLedger(id))).toEqual([409, 'reversal_exceeds_original']);
  });

  it('lets exactly one of racing whole reversals of a ledger transaction through', async () => {
    // x could pay the reversal five times over: only the original's guard stops the others.
    const [payer, x] = [await api.account(500), await api.account(1_000)];
    const made = await api.ledgerTransaction([
      { accountId: payer, direction: 'debit', amount: 100 },
      { accountId: x, direction: 'credit', amount: 100 },
    ]);
    const id = String(bodyOf(made).id);
    const results = await Promise.all(Array.from({ length: 5 }, () => reverseLedger(id)));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    for (const refused of results.filter((r) => r.statusCode !== 201)) {
      expect(problem(refused)).toEqual([409, 'reversal_exceeds_original']);
    }
    expect(await api.money(payer)).toEqual({ balance: 500, available: 500 });
    expect(await api.money(x)).toEqual({ balance: 1_000, available: 1_000 });
  });
});
