import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../../../functions/domain/accounts/model';
import { chain } from '../../../../functions/domain/journal/chain';
import type { JournalRecord } from '../../../../functions/domain/journal/model';
import {
  checkBalance,
  checkEntry,
  checkHashChain,
  checkHolds,
  checkJournal,
  checkZeroSum,
  signedAmount,
} from '../../../../functions/domain/reconciliation/model';

/** docs/contract.md §19: the pure checks. */
const record = (
  sequence: number,
  delta: number,
  after: number,
  extra: Partial<JournalRecord> = {},
) =>
  ({
    accountId: 'a',
    sequence,
    kind: delta >= 0 ? 'credit' : 'debit',
    balanceDelta: delta,
    availableDelta: delta,
    balanceAfter: after,
    availableAfter: after,
    committedAt: '2026-12-01T00:00:00.000Z',
    ...extra,
  }) as JournalRecord;

const entry = (type: LedgerEntry['type'], amount: number, extra: Partial<LedgerEntry> = {}) =>
  ({
    id: 'e',
    accountId: 'a',
    type,
    amount,
    currency: 'EUR',
    origin: 'http',
    createdAt: '2026-12-01T00:00:00.000Z',
    ...extra,
  }) as LedgerEntry;

describe('signedAmount', () => {
  it('adds credits, transfer-ins, ledger credits and credit reversals; subtracts the rest', () => {
    expect(
      (['credit', 'transfer_in', 'ledger_credit'] as const).map((t) => signedAmount(entry(t, 5))),
    ).toEqual([5, 5, 5]);
    expect(
      (['debit', 'transfer_out', 'ledger_debit', 'capture'] as const).map((t) =>
        signedAmount(entry(t, 5)),
      ),
    ).toEqual([-5, -5, -5, -5]);
    expect(signedAmount(entry('reversal', 5, { direction: 'credit' }))).toBe(5);
    expect(signedAmount(entry('reversal', 5, { direction: 'debit' }))).toBe(-5);
  });
});

describe('checkJournal (a)', () => {
  it('accepts a contiguous journal from zeros, and an opening record 1 from any values', () => {
    expect(checkJournal([record(1, 10, 10), record(2, -3, 7)], undefined)).toEqual([]);
    expect(
      checkJournal([record(1, 10, 510, { opening: true }), record(2, 1, 511)], undefined),
    ).toEqual([]);
  });

  it('finds a missing record, once, and arithmetic that does not continue', () => {
    expect(checkJournal([record(1, 10, 10), record(3, 1, 12)], undefined)).toEqual([
      expect.objectContaining({ check: 'journal', sequence: 2, expected: 2, actual: 3 }),
    ]);
    expect(checkJournal([record(1, 10, 11)], undefined)).toEqual([
      expect.objectContaining({
        check: 'journal',
        sequence: 1,
        expected: '10/10',
        actual: '11/11',
      }),
    ]);
  });

  it('continues from a checkpoint', () => {
    const from = { accountId: 'a', checkedSequence: 4, balanceAfter: 40, availableAfter: 40 };
    expect(checkJournal([record(5, 2, 42)], from)).toEqual([]);
    expect(checkJournal([record(5, 2, 43)], from)).toHaveLength(1);
    expect(checkJournal([record(6, 2, 42)], from)).toEqual([
      expect.objectContaining({ sequence: 5, expected: 5, actual: 6 }),
    ]);
  });
});

describe('checkEntry (b)', () => {
  it('needs the entry, on the account, moving exactly the delta', () => {
    const r = record(1, -7, -7, { entryId: 'e' });
    expect(checkEntry(r, entry('debit', 7))).toEqual([]);
    expect(checkEntry(r, undefined)).toEqual([
      expect.objectContaining({ check: 'entries', actual: 'missing' }),
    ]);
    expect(checkEntry(r, entry('debit', 8))).toEqual([
      expect.objectContaining({ expected: -7, actual: -8 }),
    ]);
    expect(checkEntry(r, entry('debit', 7, { accountId: 'b' }))).toHaveLength(1);
    expect(checkEntry(record(1, 0, 0), undefined)).toEqual([]);
  });
});

describe('the live account (b, c)', () => {
  const live = {
    accountId: 'a',
    version: 3,
    balance: 100,
    available: 60,
    journalFromCreation: true,
  };
  it('stands where the journal ends', () => {
    const end = { accountId: 'a', checkedSequence: 3, balanceAfter: 100, availableAfter: 60 };
    expect(checkBalance(end, live)).toEqual([]);
    expect(checkBalance({ ...end, balanceAfter: 99 }, live)).toEqual([
      expect.objectContaining({ check: 'balance', expected: '99/60', actual: '100/60' }),
    ]);
  });
  it('reserves balance − available in active holds', () => {
    expect(checkHolds(live, 40, 3)).toEqual([]);
    expect(checkHolds(live, 0, 3)).toEqual([
      expect.objectContaining({ check: 'holds', expected: 0, actual: 40, sequence: 3 }),
    ]);
  });
});

describe('checkZeroSum (d)', () => {
  const legs = [entry('transfer_out', 5), entry('transfer_in', 5, { accountId: 'b' })];
  it('needs every leg and a zero sum', () => {
    expect(checkZeroSum({ kind: 'transfer', id: 't', expectedLegs: 2, legs }, 1)).toEqual([]);
    expect(
      checkZeroSum(
        { kind: 'transfer', id: 't', expectedLegs: 2, legs: [legs[0] as LedgerEntry] },
        1,
      ),
    ).toEqual([expect.objectContaining({ check: 'zero_sum', actual: '1 legs, sum -5' })]);
    const lopsided = [
      entry('ledger_debit', 9),
      entry('ledger_credit', 5),
      entry('ledger_credit', 3),
    ];
    expect(
      checkZeroSum({ kind: 'ledger_transaction', id: 'l', expectedLegs: 3, legs: lopsided }, 2),
    ).toEqual([expect.objectContaining({ actual: '3 legs, sum -1' })]);
  });

  it('sums each currency apart: 100 USD out and 100 EUR in is not zero (§35)', () => {
    const crossed = [
      entry('ledger_debit', 100, { currency: 'USD' }),
      entry('ledger_credit', 100, { accountId: 'b', currency: 'EUR' }),
    ];
    const found = checkZeroSum(
      { kind: 'ledger_transaction', id: 'fx', expectedLegs: 2, legs: crossed },
      4,
    );
    expect(found).toEqual([
      {
        check: 'zero_sum',
        sequence: 4,
        expected: '2 legs, sum 0 per currency',
        actual: '2 legs, sum -100 USD, 100 EUR',
        detail: 'ledger_transaction fx has 2 of 2 legs, summing to -100 USD, 100 EUR',
      },
    ]);
  });

  it('finds nothing in an exchange that balances in each currency (§35)', () => {
    const exchange = [
      entry('ledger_debit', 100, { accountId: 'a', currency: 'USD' }),
      entry('ledger_credit', 100, { accountId: 'b', currency: 'USD' }),
      entry('ledger_debit', 92, { accountId: 'c', currency: 'EUR' }),
      entry('ledger_credit', 92, { accountId: 'd', currency: 'EUR' }),
    ];
    expect(
      checkZeroSum({ kind: 'ledger_transaction', id: 'fx', expectedLegs: 4, legs: exchange }, 4),
    ).toEqual([]);
  });
});

describe('the hash chain check (docs/contract.md §27)', () => {
  const records = chain([record(1, 5, 5), record(2, 3, 8), record(3, -2, 6)], undefined);
  const checkpointAt = (r: JournalRecord) => ({
    accountId: 'a',
    checkedSequence: r.sequence,
    balanceAfter: r.balanceAfter,
    availableAfter: r.availableAfter,
    ...(r.hash ? { hash: r.hash } : {}),
  });

  it('finds nothing in a sound chain, from the start or from a checkpoint', () => {
    expect(checkHashChain(records, undefined)).toEqual([]);
    expect(checkHashChain(records.slice(1), checkpointAt(records[0] as JournalRecord))).toEqual([]);
  });

  it('reports each edited record once, at its sequence', () => {
    const edited = records.map((r) => (r.sequence === 2 ? { ...r, committedAt: 'x' } : r));
    expect(checkHashChain(edited, undefined)).toEqual([
      expect.objectContaining({ check: 'hash_chain', sequence: 2, actual: records[1]?.hash }),
    ]);
  });

  it('wants the next record linked to the checkpoint hash', () => {
    const wrong = { ...checkpointAt(records[0] as JournalRecord), hash: 'b'.repeat(64) };
    expect(checkHashChain(records.slice(1), wrong).map((m) => m.sequence)).toEqual([2]);
  });
});
