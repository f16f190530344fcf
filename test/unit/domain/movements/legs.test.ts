import { describe, expect, it } from 'vitest';
import type { AccountRecord, LedgerEntry } from '../../../../functions/domain/accounts/model';
import {
  explainLegsRejection,
  legGuard,
  type MovementLeg,
} from '../../../../functions/domain/movements/legs';
import { explainAccountRejection } from '../../../../functions/domain/movements/rejections';

/** docs/contract.md §16: one judgement of a refused movement, whatever its number of legs. */
const account = (id: string, overrides: Partial<AccountRecord> = {}): AccountRecord => ({
  id,
  ownerId: 'alice',
  currency: 'EUR',
  balance: 0,
  available: 0,
  overdraftLimit: 0,
  status: 'open',
  creditIntake: 'direct' as const,
  version: 0,
  createdAt: 'x',
  updatedAt: 'x',
  ...overrides,
});

const leg = (accountId: string, direction: 'debit' | 'credit', amount: number): MovementLeg => {
  const entry: LedgerEntry = {
    id: `e-${accountId}`,
    accountId,
    type: direction === 'debit' ? 'ledger_debit' : 'ledger_credit',
    amount,
    currency: 'EUR',
    origin: 'http',
    createdAt: 'x',
    effectiveAt: 'x',
  };
  return { entry, guard: legGuard(entry, direction, 'alice') };
};

const legs = [leg('a', 'debit', 50), leg('b', 'debit', 50), leg('c', 'credit', 100)];
const rejected = (...items: [number, AccountRecord | undefined][]) => ({
  kind: 'legs_rejected' as const,
  legs: items.map(([index, state]) => ({ index, account: state })),
});

describe('explainLegsRejection', () => {
  it.each([
    [
      'a missing account wins over everything',
      rejected([0, account('a')], [2, undefined]),
      'not_found',
    ],
    [
      'a foreign account is not_found over HTTP',
      rejected([2, account('c', { ownerId: 'bob' })]),
      'not_found',
    ],
    [
      'currency before closed and funds',
      rejected(
        [0, account('a')],
        [1, account('b', { status: 'closed' })],
        [2, account('c', { currency: 'USD' })],
      ),
      'currency_mismatch',
    ],
    [
      'closed before funds',
      rejected([0, account('a')], [2, account('c', { status: 'closed' })]),
      'account_closed',
    ],
    [
      'funds before the cap',
      rejected([1, account('b')], [2, account('c', { balance: Number.MAX_SAFE_INTEGER })]),
      'insufficient_funds',
    ],
    [
      'the cap',
      rejected([2, account('c', { balance: Number.MAX_SAFE_INTEGER })]),
      'balance_limit_exceeded',
    ],
  ])('%s', (_name, refusal, code) => {
    expect(explainLegsRejection(refusal, legs).code).toBe(code);
  });

  it('names the first short leg in insufficient_funds, whatever order the reasons came in', () => {
    const error = explainLegsRejection(rejected([1, account('b')], [0, account('a')]), legs);
    expect(error.code).toBe('insufficient_funds');
    expect(error.detail).toContain('Account a ');
    expect(error.detail).not.toContain('Account b ');
  });

  it('is owner_mismatch for an event whose leg belongs to another owner (not for a missing one)', () => {
    const foreign = rejected([2, account('c', { ownerId: 'bob' })]);
    expect(explainLegsRejection(foreign, legs, 'owner_mismatch').code).toBe('owner_mismatch');
    expect(explainLegsRejection(rejected([2, undefined]), legs, 'owner_mismatch').code).toBe(
      'not_found',
    );
  });

  it('answers payment_id_conflict when only the paymentId failed', () => {
    expect(explainLegsRejection({ kind: 'payment_id_taken' }, legs).code).toBe(
      'payment_id_conflict',
    );
  });
});

describe('explainAccountRejection with overdraft and closing (docs/contract.md §17)', () => {
  const draw = { currency: 'EUR', requireOpen: true, requireAvailableAtLeast: 100 };
  it('draws on available plus overdraftLimit', () => {
    const overdrawn = account('a', { available: -400, overdraftLimit: 499 });
    expect(explainAccountRejection(overdrawn, draw).code).toBe('insufficient_funds');
    // Exactly covered would not have been refused: storage and rules disagree.
    expect(explainAccountRejection({ ...overdrawn, overdraftLimit: 500 }, draw).code).toBe(
      'internal',
    );
  });

  it('refuses a closed account only where the guard asks for an open one', () => {
    const closed = account('a', { status: 'closed', available: 0 });
    expect(explainAccountRejection(closed, draw).code).toBe('account_closed');
    expect(explainAccountRejection(closed, { ...draw, requireOpen: undefined }).code).toBe(
      'insufficient_funds',
    );
  });
});
