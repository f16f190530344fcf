import { unmarshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  captureSettlement,
  expirySettlement,
  type HoldRecord,
  voidSettlement,
} from '../../../../functions/domain/accounts/hold-record';
import type { LedgerEntry } from '../../../../functions/domain/accounts/model';
import { holdChanged, settlementPlan } from '../../../../functions/dynamodb/holds/items';
import { composeMoney } from '../../../../functions/dynamodb/movements/compose';
import { decodeCancellation } from '../../../../functions/dynamodb/movements/decode';

/**
 * docs/contract.md §30: a capture racing a re-own cannot apply to an account someone else owns
 * now — the account update of a capture (and a void) requires the hold's owner.
 */

const now = new Date('2026-12-01T10:00:00.000Z');
const hold: HoldRecord = {
  id: 'h1',
  accountId: 'a1',
  ownerId: 'alice',
  amount: 10,
  currency: 'EUR',
  status: 'active',
  capturedAmount: 0,
  expiresAt: '2026-12-02T00:00:00.000Z',
  createdAt: '2026-12-01T09:00:00.000Z',
  updatedAt: '2026-12-01T09:00:00.000Z',
};

function accountGuard(settlement: ReturnType<typeof captureSettlement>) {
  const entry = { id: 'e1', accountId: 'a1', type: 'capture', createdAt: 'x' } as LedgerEntry;
  const parts = composeMoney('ledger', settlementPlan('ledger', settlement, entry));
  const update = parts.find((part) => part.role === 'account:a1')?.item.Update;
  if (!update) throw new Error('an Update');
  return {
    condition: update.ConditionExpression ?? '',
    names: update.ExpressionAttributeNames ?? {},
    values: unmarshall(update.ExpressionAttributeValues ?? {}),
  };
}

describe("a hold settlement's account owner guard", () => {
  it.each([
    ['capture', captureSettlement(hold, 4, now)],
    ['void', voidSettlement(hold, now)],
  ])('a %s updates the account only while it belongs to the hold owner', (_name, settlement) => {
    const { condition, names, values } = accountGuard(settlement);
    expect(condition).toContain('#ownerId = :ownerId');
    expect(names['#ownerId']).toBe('ownerId');
    expect(values[':ownerId']).toBe('alice');
  });

  it("the sweeper's expiry acts for nobody: no owner guard", () => {
    const { condition, values } = accountGuard(expirySettlement(hold, now));
    expect(condition).not.toContain('#ownerId');
    expect(values[':ownerId']).toBeUndefined();
  });

  it('an account re-owned under the capture reports the hold as the new owner’s', () => {
    const settlement = captureSettlement(hold, 4, now);
    const failed = decodeCancellation(new Map([['account:a1', { id: 'a1', ownerId: 'bob' }]]));
    expect(holdChanged(failed, settlement)).toEqual({
      kind: 'hold_changed',
      hold: { ...settlement.hold, ownerId: 'bob' },
    });
    // Same owner: not an owner race, so nothing to report here.
    const same = decodeCancellation(new Map([['account:a1', { ownerId: 'alice' }]]));
    expect(holdChanged(same, settlement)).toBeUndefined();
  });
});
