import { describe, expect, it } from 'vitest';
import { entryRow, legRows } from '../../../console/server/accounts/rows';
import type { LedgerTransactionRecord } from '../../../functions/domain/accounts/ledger-transaction-record';
import type { LedgerEntry } from '../../../functions/domain/accounts/model';

/** The console's reader shows a ledger leg's transaction, each leg in its currency (§35). */
const record: LedgerTransactionRecord = {
  id: 'lt-1',
  currency: 'USD',
  legs: [
    { accountId: 'a', direction: 'debit', amount: 10_000, entryId: 'e1' },
    { accountId: 'b', direction: 'credit', amount: 10_000, entryId: 'e2' },
    { accountId: 'c', direction: 'debit', amount: 9_213, currency: 'EUR', entryId: 'e3' },
    { accountId: 'd', direction: 'credit', amount: 9_213, currency: 'EUR', entryId: 'e4' },
  ],
  ownerId: 'alice',
  origin: 'http',
  createdAt: '2026-12-06T10:00:00.000Z',
  effectiveAt: '2026-12-06T10:00:00.000Z',
};

describe('legs in the console', () => {
  it('resolves each leg’s currency: its own, else the transaction’s', () => {
    expect(legRows(record).map((l) => [l.accountId, l.currency])).toEqual([
      ['a', 'USD'],
      ['b', 'USD'],
      ['c', 'EUR'],
      ['d', 'EUR'],
    ]);
  });

  it('puts the legs on the entry row of a ledger leg, and none elsewhere', () => {
    const entry = {
      id: 'e4',
      accountId: 'd',
      type: 'ledger_credit',
      amount: 9_213,
      currency: 'EUR',
      ledgerTransactionId: 'lt-1',
      origin: 'http',
      createdAt: record.createdAt,
    } as LedgerEntry;
    expect(entryRow(entry, legRows(record)).legs).toHaveLength(4);
    expect(entryRow(entry)).not.toHaveProperty('legs');
  });
});
