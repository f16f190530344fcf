import { describe, expect, it } from 'vitest';
import type { AccountRecord } from '../../../../functions/domain/accounts/model';
import { explainPostingRejection } from '../../../../functions/domain/movements/rejections';
import { LedgerRejection } from '../../../../functions/domain/shared/errors';

const account: AccountRecord = {
  id: 'a1',
  ownerId: 'alice',
  currency: 'EUR',
  balance: 10,
  available: 10,
  overdraftLimit: 0,
  status: 'open' as const,
  creditIntake: 'direct' as const,
  version: 0,
  createdAt: 'x',
  updatedAt: 'x',
};
const debit = { ownerId: 'alice', currency: 'EUR', requireAvailableAtLeast: 50 };

describe('explainPostingRejection: one judgement for HTTP, events and the export fee', () => {
  it.each([
    ['a missing account', { kind: 'account_rejected', account: undefined }, debit, 'not_found'],
    [
      "another principal's account",
      { kind: 'account_rejected', account: { ...account, ownerId: 'bob' } },
      debit,
      'not_found',
    ],
    [
      'another currency (checked before cover)',
      { kind: 'account_rejected', account: { ...account, currency: 'USD' } },
      debit,
      'currency_mismatch',
    ],
    ['no cover', { kind: 'account_rejected', account }, debit, 'insufficient_funds'],
    [
      'a balance that covers it but money on hold (available decides)',
      { kind: 'account_rejected', account: { ...account, balance: 500, available: 10 } },
      debit,
      'insufficient_funds',
    ],
    [
      'no cover, for an event (no owner to check)',
      { kind: 'account_rejected', account: { ...account, ownerId: 'producer' } },
      { currency: 'EUR', requireAvailableAtLeast: 50 },
      'insufficient_funds',
    ],
    ['a used paymentId', { kind: 'payment_id_taken' }, debit, 'payment_id_conflict'],
    [
      'a credit past 2^53 − 1 (recorded, docs/contract.md §5)',
      { kind: 'account_rejected', account: { ...account, balance: Number.MAX_SAFE_INTEGER - 5 } },
      { ownerId: 'alice', currency: 'EUR', increaseBy: 6 },
      'balance_limit_exceeded',
    ],
    [
      'a credit up to 2^53 − 1 exactly',
      { kind: 'account_rejected', account: { ...account, balance: Number.MAX_SAFE_INTEGER - 5 } },
      { ownerId: 'alice', currency: 'EUR', increaseBy: 5 },
      'internal',
    ],
    [
      'a state that satisfies the guard',
      { kind: 'account_rejected', account: { ...account, balance: 500, available: 500 } },
      debit,
      'internal',
    ],
  ] as const)('explains %s as %s', (_name, rejected, guard, code) => {
    expect(explainPostingRejection(rejected, guard).code).toBe(code);
  });

  it('marks only decisions on ledger state as recorded rejections', () => {
    const recorded = (account?: AccountRecord) =>
      explainPostingRejection({ kind: 'account_rejected', account }, debit) instanceof
      LedgerRejection;
    expect(recorded(account)).toBe(true);
    expect(recorded(undefined)).toBe(false);
    expect(recorded({ ...account, balance: 500, available: 500 })).toBe(false);
  });
});
