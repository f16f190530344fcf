import { unmarshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { MAX_BALANCE } from '../../../../functions/domain/accounts/money';
import {
  type AccountChange,
  MAX_CHANGES_PER_UPDATE,
} from '../../../../functions/domain/journal/model';
import { accountChangeItem } from '../../../../functions/dynamodb/movements/account-change';

const at = '2026-12-01T10:00:00.000Z';
const credit = (amount: number, entryId = 'e1'): AccountChange => ({
  kind: 'credit',
  balanceDelta: amount,
  availableDelta: amount,
  at,
  entryId,
});

function update(
  changes: AccountChange[],
  extra: { requireAvailableAtLeast?: number; requireOpen?: boolean } = {},
) {
  const item = accountChangeItem('ledger', { accountId: 'a1', changes, ...extra }).Update;
  if (!item) throw new Error('an Update');
  return {
    expression: item.UpdateExpression,
    condition: item.ConditionExpression,
    values: unmarshall(item.ExpressionAttributeValues ?? {}),
  };
}

describe('the account-change builder (docs/contract.md §15)', () => {
  it('moves balance and available, bumps version by one and keeps the descriptor', () => {
    const { expression, values } = update([credit(70)]);
    expect(expression).toContain('#version = if_not_exists(#version, :zero) + :n');
    expect(expression).toContain('#lastChanges = :lastChanges');
    expect(values[':n']).toBe(1);
    expect(values[':balanceDelta']).toBe(70);
    expect(values[':lastChanges']).toEqual([
      { kind: 'credit', balanceDelta: 70, availableDelta: 70, at, entryId: 'e1' },
    ]);
  });

  it('carries several changes in one update: their sum, their count, all descriptors', () => {
    const hold: AccountChange = {
      kind: 'hold_placed',
      balanceDelta: 0,
      availableDelta: -30,
      at: '2026-12-01T10:00:01.000Z',
      holdId: 'h1',
    };
    const { values } = update([credit(70), hold, credit(5, 'e2')]);
    expect(values[':n']).toBe(3);
    expect(values[':balanceDelta']).toBe(75);
    expect(values[':availableDelta']).toBe(45);
    // updatedAt is the last change's clock.
    expect(values[':at']).toBe(at);
    expect(values[':lastChanges']).toHaveLength(3);
    expect(values[':lastChanges'][1]).toEqual(hold);
  });

  it('guards the balance ceiling at the highest running increase, not the net one', () => {
    const debit: AccountChange = { ...credit(-80), kind: 'debit' };
    const { values, condition } = update([credit(100), debit]);
    expect(condition).toContain('#balance <= :ceiling');
    expect(values[':ceiling']).toBe(MAX_BALANCE - 100);
    expect(update([debit]).condition).not.toContain(':ceiling');
  });

  it('refuses an update without changes or with more than one transaction can journal', () => {
    expect(() => update([])).toThrow(/1 to 49 changes/);
    const many = Array.from({ length: MAX_CHANGES_PER_UPDATE + 1 }, (_, i) => credit(1, `e${i}`));
    expect(() => update(many)).toThrow(/not 50/);
    expect(update(many.slice(1)).values[':n']).toBe(MAX_CHANGES_PER_UPDATE);
  });

  it('keeps the covering guard in either form of available', () => {
    const { condition, values } = update([credit(-10)], { requireAvailableAtLeast: 10 });
    expect(condition).toContain('attribute_not_exists(#available) AND #balance >= :required');
    expect(values[':required']).toBe(10);
  });

  it('moves spendable with available in the same SET as version, and guards on it (§17)', () => {
    const leg: AccountChange = {
      kind: 'ledger_debit',
      balanceDelta: -40,
      availableDelta: -40,
      at,
      entryId: 'e9',
      ledgerTransactionId: 'l1',
    };
    const { expression, condition, values } = update([leg], {
      requireAvailableAtLeast: 40,
      requireOpen: true,
    });
    expect(expression).toContain(
      '#spendable = if_not_exists(#spendable, if_not_exists(#available, #balance)) + :availableDelta',
    );
    expect(expression).toContain('#version = if_not_exists(#version, :zero) + :n');
    expect(condition).toContain('(attribute_exists(#spendable) AND #spendable >= :required)');
    expect(condition).toContain('(attribute_not_exists(#status) OR #status <> :closed)');
    expect(values[':lastChanges']).toEqual([leg]);
  });

  it('leaves the closed guard out where no caller asks for it (the sweeper)', () => {
    expect(update([credit(5)]).condition).not.toContain('#status');
  });
});
