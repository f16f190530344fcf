import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../../../functions/domain/accounts/model';
import {
  coalesce,
  firstClash,
  itemsOf,
  type PlannedMovement,
} from '../../../../functions/domain/batches/model';
import { postingGuard } from '../../../../functions/domain/movements/legs';

/** docs/contract.md §25: what one transaction of a batch can carry. */
const claim = {
  scopeId: 's',
  fingerprint: 'f',
  nowSeconds: 0,
  expiresAt: 1,
  response: { statusCode: 201, body: '{}' },
};

function posting(accountId: string, extra: Partial<LedgerEntry> = {}): PlannedMovement {
  const entry: LedgerEntry = {
    id: `e-${Math.random()}`,
    accountId,
    type: 'credit',
    amount: 1,
    currency: 'EUR',
    origin: 'http',
    createdAt: '2026-12-01T00:00:00.000Z',
    effectiveAt: '2026-12-01T00:00:00.000Z',
    ...extra,
  };
  return {
    claim,
    legs: [
      {
        entry,
        guard: postingGuard({
          type: 'credit',
          amount: 1,
          currency: entry.currency,
          effectiveAt: entry.effectiveAt,
        }),
      },
    ],
  };
}

describe('batch transactions', () => {
  it('count one update per account, then claim, entry, pointer, record and paymentId per movement', () => {
    const transfer: PlannedMovement = {
      claim,
      legs: [...posting('a').legs, ...posting('b').legs],
      record: { kind: 'transfer', transfer: {} as never },
    };
    expect(itemsOf([posting('a')])).toBe(4);
    expect(itemsOf([posting('a'), posting('a')])).toBe(7);
    expect(itemsOf([posting('a', { paymentId: 'p' })], 1)).toBe(6);
    expect(itemsOf([transfer, posting('a')])).toBe(2 + 6 + 3);
  });

  it('cut one account into chunks of at most 30 operations and 100 items', () => {
    const plain = Array.from({ length: 100 }, () => posting('a'));
    expect(coalesce(plain).map((c) => c.length)).toEqual([30, 30, 30, 10]);
    const paid = Array.from({ length: 30 }, (_, i) => posting('a', { paymentId: `p${i}` }));
    // 1 + 4 × 24 = 97 items; a 25th would need 101.
    expect(coalesce(paid).map((c) => c.length)).toEqual([24, 6]);
    expect(coalesce(plain).flat()).toEqual(plain.map((_, i) => i));
  });

  it('end a chunk before a paymentId it holds or another currency', () => {
    const movements = [
      posting('a', { paymentId: 'p' }),
      posting('a'),
      posting('a', { paymentId: 'p' }),
      posting('a', { currency: 'USD' }),
    ];
    expect(firstClash(movements)).toBe(2);
    expect(firstClash(movements.slice(0, 2))).toBeUndefined();
    expect(firstClash([posting('a'), posting('b', { currency: 'USD' })])).toBeUndefined();
    expect(coalesce(movements)).toEqual([[0, 1], [2], [3]]);
  });
});
