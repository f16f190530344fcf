import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../../functions/domain/journal/model';
import { expectExactJournal, type journalApi } from '../../support/journal/journal';
import { startJournalFixture } from '../../support/journal/journal-fixture';
import { bodyOf } from '../../support/ledger-api';

/**
 * Ledger depth in the journal (docs/contract.md §15–§17): every leg of a ledger transaction and
 * every reversal entry is one record of its account, of kind `ledger_debit`, `ledger_credit` or
 * `reversal` with its ids; overdraft draws go below zero; closing writes nothing.
 */
let api: ReturnType<typeof journalApi>;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ api, close } = await startJournalFixture());
});

afterAll(() => close?.());

const ids = (r: JournalRecord) => ({
  kind: r.kind,
  balanceDelta: r.balanceDelta,
  availableDelta: r.availableDelta,
  ledgerTransactionId: r.ledgerTransactionId,
  reversalOf: r.reversalOf,
  transferId: r.transferId,
});

async function exact(account: string): Promise<JournalRecord[]> {
  const records = await api.caughtUp(account);
  expectExactJournal(records, {
    ...(await api.money(account)),
    version: await api.version(account),
  });
  return records;
}

describe('ledger transactions and reversals in the journal', () => {
  it('journal every leg and every reversal entry, contiguous and exact, racing ones included', async () => {
    const payer = await api.account(10_000);
    const payees = [await api.account(), await api.account(), await api.account()];
    const split = (i: number) => ({
      currency: 'EUR',
      legs: [
        { accountId: payer, direction: 'debit', amount: 60 + 3 * i },
        ...payees.map((accountId, j) => ({
          accountId,
          direction: 'credit',
          amount: 20 + i + j - 1,
        })),
      ],
    });
    const made = await Promise.all(
      Array.from({ length: 8 }, (_, i) => api.post('/v1/ledger-transactions', split(i))),
    );
    expect(made.map((r) => r.statusCode)).toEqual(made.map(() => 201));
    const ltIds = made.map((r) => String(bodyOf(r).id));
    // Three racing reversals of each of the first two transactions: one wins each.
    const racing = await Promise.all(
      ltIds
        .slice(0, 2)
        .flatMap((id) =>
          Array.from({ length: 3 }, () => api.post(`/v1/ledger-transactions/${id}/reversals`, {})),
        ),
    );
    expect(racing.filter((r) => r.statusCode === 201)).toHaveLength(2);
    expect(racing.filter((r) => r.statusCode === 409)).toHaveLength(4);

    const payerRecords = await exact(payer);
    const amountOf = new Map(ltIds.map((id, i) => [id, 60 + 3 * i]));
    const debits = payerRecords.filter((r) => r.kind === 'ledger_debit');
    expect(debits.map((r) => r.ledgerTransactionId).sort()).toEqual([...ltIds].sort());
    for (const r of debits)
      expect(r.balanceDelta).toBe(-(amountOf.get(String(r.ledgerTransactionId)) ?? 0));
    const refunds = payerRecords.filter((r) => r.kind === 'reversal');
    expect(refunds.map((r) => r.reversalOf).sort()).toEqual(ltIds.slice(0, 2).sort());
    for (const r of refunds) {
      expect(r).toMatchObject({
        ledgerTransactionId: r.reversalOf,
        availableDelta: r.balanceDelta,
      });
      expect(r.balanceDelta).toBe(amountOf.get(String(r.reversalOf)));
    }
    expect(payerRecords).toHaveLength(1 + 8 + 2);
    for (const payee of payees) {
      const records = await exact(payee);
      expect(records.filter((r) => r.kind === 'ledger_credit')).toHaveLength(8);
      const reversals = records.filter((r) => r.kind === 'reversal');
      expect(reversals.map((r) => r.reversalOf).sort()).toEqual(ltIds.slice(0, 2).sort());
      for (const r of reversals) {
        expect(r.ledgerTransactionId).toBe(r.reversalOf);
        expect(r.balanceDelta).toBeLessThan(0);
        expect(r.entryId).toMatch(/^[0-9a-f-]{36}$/);
      }
    }
    // Money is conserved per ledger transaction in the journal, reversals included.
    const all = [payer, ...payees];
    const journals = await Promise.all(all.map((a) => api.journal(a)));
    for (const id of ltIds) {
      const sum = journals
        .flat()
        .filter((r) => r.ledgerTransactionId === id)
        .reduce((s, r) => s + r.balanceDelta, 0);
      expect(sum, id).toBe(0);
    }
  });

  it('journals reversals of a credit, a debit and a transfer with reversalOf and exact deltas', async () => {
    const a = await api.account();
    const b = await api.account();
    const credited = await api.post(`/v1/accounts/${a}/transactions`, {
      type: 'credit',
      amount: 500,
      currency: 'EUR',
    });
    const creditId = String(bodyOf(credited).id);
    const debited = await api.post(`/v1/accounts/${a}/transactions`, {
      type: 'debit',
      amount: 40,
      currency: 'EUR',
    });
    const debitId = String(bodyOf(debited).id);
    const moved = await api.post('/v1/transfers', {
      fromAccountId: a,
      toAccountId: b,
      amount: 100,
      currency: 'EUR',
    });
    const transferId = String(bodyOf(moved).id);
    const reverse = (path: string, body: object) => api.post(path, body);
    expect(
      (await reverse(`/v1/accounts/${a}/transactions/${creditId}/reversals`, { amount: 30 }))
        .statusCode,
    ).toBe(201);
    expect(
      (await reverse(`/v1/accounts/${a}/transactions/${debitId}/reversals`, {})).statusCode,
    ).toBe(201);
    expect(
      (await reverse(`/v1/transfers/${transferId}/reversals`, { amount: 25 })).statusCode,
    ).toBe(201);

    expect((await exact(a)).map(ids)).toEqual([
      { kind: 'credit', balanceDelta: 500, availableDelta: 500 },
      { kind: 'debit', balanceDelta: -40, availableDelta: -40 },
      { kind: 'transfer_out', balanceDelta: -100, availableDelta: -100, transferId },
      { kind: 'reversal', balanceDelta: -30, availableDelta: -30, reversalOf: creditId },
      { kind: 'reversal', balanceDelta: 40, availableDelta: 40, reversalOf: debitId },
      {
        kind: 'reversal',
        balanceDelta: 25,
        availableDelta: 25,
        reversalOf: transferId,
        transferId,
      },
    ]);
    expect((await exact(b)).map(ids)).toEqual([
      { kind: 'transfer_in', balanceDelta: 100, availableDelta: 100, transferId },
      {
        kind: 'reversal',
        balanceDelta: -25,
        availableDelta: -25,
        reversalOf: transferId,
        transferId,
      },
    ]);
  });
});

describe('overdraft and closing in the journal', () => {
  it('records overdraft draws below zero; closing writes no record and keeps version', async () => {
    const settle = await api.accountWith({ overdraftLimit: 1_000 });
    const other = await api.account();
    await api.post(`/v1/accounts/${settle}/transactions`, {
      type: 'debit',
      amount: 300,
      currency: 'EUR',
    });
    await api.post('/v1/ledger-transactions', {
      currency: 'EUR',
      legs: [
        { accountId: settle, direction: 'debit', amount: 200 },
        { accountId: other, direction: 'credit', amount: 200 },
      ],
    });
    const records = await exact(settle);
    expect(records.map((r) => [r.kind, r.balanceAfter, r.availableAfter])).toEqual([
      ['debit', -300, -300],
      ['ledger_debit', -500, -500],
    ]);

    const empty = await api.account(70);
    await api.post(`/v1/accounts/${empty}/transactions`, {
      type: 'debit',
      amount: 70,
      currency: 'EUR',
    });
    const before = await exact(empty);
    expect(before).toHaveLength(2);
    const closed = await api.post(`/v1/accounts/${empty}/close`, {});
    expect(closed.statusCode, closed.body).toBe(200);
    expect(bodyOf(closed)).toMatchObject({ status: 'closed', version: 2 });
    // A later change of another account is journaled; the closed one's journal stays as it was.
    await api.post(`/v1/accounts/${other}/transactions`, {
      type: 'credit',
      amount: 1,
      currency: 'EUR',
    });
    await exact(other);
    expect(await api.version(empty)).toBe(2);
    expect(await api.journal(empty)).toEqual(before);
  });
});
