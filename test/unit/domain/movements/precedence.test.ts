import { describe, expect, it } from 'vitest';
import type { AccountRecord, LedgerEntry } from '../../../../functions/domain/accounts/model';
import { MAX_BALANCE } from '../../../../functions/domain/accounts/money';
import type { PendingCredit } from '../../../../functions/domain/accounts/pending-credits';
import { refusalOf } from '../../../../functions/domain/intake/posting';
import type { EntryGuard } from '../../../../functions/domain/movements/guard';
import { explainLegsRejection, legGuard } from '../../../../functions/domain/movements/legs';
import { REFUSAL_PRECEDENCE, refusalCode } from '../../../../functions/domain/movements/precedence';
import { explainAccountRejection } from '../../../../functions/domain/movements/rejections';

/**
 * docs/architecture.md "One write path": ONE ordered table of refusals; every transport and the
 * folder answer the first code of it that the account as it stood breaks.
 */
const account = (overrides: Partial<AccountRecord> = {}): AccountRecord => ({
  id: 'a',
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

/** Breaks every rule of the table at once: another owner, USD, closed, period closed, empty, full. */
const broken = account({
  ownerId: 'mallory',
  currency: 'USD',
  status: 'closed',
  closedThrough: '2026-12-31T00:00:00.000Z',
  balance: MAX_BALANCE,
  available: 0,
});
const guard: EntryGuard = {
  ownerId: 'alice',
  currency: 'EUR',
  requireOpen: true,
  effectiveAt: '2026-06-01T00:00:00.000Z',
  requireAvailableAtLeast: 10,
  increaseBy: 10,
};

/** The account with the rule of `code` (and every rule before it) satisfied. */
const repaired: Record<string, Partial<AccountRecord>> = {
  owner_mismatch: { ownerId: 'alice' },
  currency_mismatch: { currency: 'EUR' },
  account_closed: { status: 'open' },
  period_closed: { closedThrough: undefined },
  insufficient_funds: { available: 100 },
  balance_limit_exceeded: { balance: 0 },
};

describe('the refusal precedence table', () => {
  it('is the order of §16: not found, owners, currency, closed, period, funds, the cap', () => {
    expect(REFUSAL_PRECEDENCE.map((row) => row.code)).toEqual([
      'not_found',
      'owner_mismatch',
      'currency_mismatch',
      'account_closed',
      'period_closed',
      'insufficient_funds',
      'balance_limit_exceeded',
    ]);
  });

  it('answers the first broken row, row after row as each is repaired', () => {
    expect(refusalCode(undefined, guard)).toBe('not_found');
    let state = broken;
    const seen: (string | undefined)[] = [];
    for (const [code, fix] of Object.entries(repaired)) {
      seen.push(refusalCode(state, guard, 'owner_mismatch'));
      expect(explainAccountRejection(state, guard, 'a', 'owner_mismatch').code).toBe(code);
      state = { ...state, ...fix };
    }
    expect(seen).toEqual(Object.keys(repaired));
    expect(refusalCode(state, guard)).toBeUndefined();
    expect(explainAccountRejection(state, guard).code).toBe('internal');
    // Over HTTP an account of another owner is not found, whatever else it breaks.
    expect(explainAccountRejection(broken, guard).code).toBe('not_found');
  });

  it('ranks the legs of one movement by the same table, the first leg among equals', () => {
    const entry = (accountId: string): LedgerEntry => ({
      id: `e-${accountId}`,
      accountId,
      type: 'ledger_debit',
      amount: 10,
      currency: 'EUR',
      origin: 'http',
      createdAt: 'x',
      effectiveAt: guard.effectiveAt as string,
    });
    const legs = ['a', 'b', 'c'].map((id) => {
      const e = entry(id);
      return { entry: e, guard: { ...legGuard(e, 'debit', 'alice'), increaseBy: 10 } };
    });
    const closedPeriod = account({
      closedThrough: '2026-12-31T00:00:00.000Z',
      balance: MAX_BALANCE,
    });
    const capped = account({ balance: MAX_BALANCE, available: 100 });
    const rejected = {
      kind: 'legs_rejected' as const,
      legs: [
        { index: 0, account: capped },
        { index: 1, account: closedPeriod },
        { index: 2, account: account({ status: 'closed' }) },
      ],
    };
    const codes = [3, 2, 1].map(
      (n) => explainLegsRejection({ ...rejected, legs: rejected.legs.slice(0, n) }, legs).code,
    );
    expect(codes).toEqual(['account_closed', 'period_closed', 'balance_limit_exceeded']);
  });

  it('is the folder order too: a closed period before the balance cap', () => {
    const credit = (amount: number): PendingCredit =>
      ({
        entry: { ...({} as LedgerEntry), id: 'c', amount, effectiveAt: '2026-06-01T00:00:00.000Z' },
        acceptedAt: 'x',
        shard: 0,
      }) as PendingCredit;
    const both = account({ closedThrough: '2026-12-31T00:00:00.000Z', balance: MAX_BALANCE });
    expect(refusalOf('a', both, [credit(5)]).code).toBe('period_closed');
    expect(refusalOf('a', { ...both, closedThrough: undefined }, [credit(5)]).code).toBe(
      'balance_limit_exceeded',
    );
    expect(refusalOf('a', undefined, [credit(5)]).code).toBe('not_found');
  });
});
