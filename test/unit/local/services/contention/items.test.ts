import { describe, expect, it } from 'vitest';
import { WriteBudget } from '../../../../../local/services/contention/budget';
import {
  itemId,
  itemSize,
  transactItems,
  valueSize,
  writeUnits,
} from '../../../../../local/services/contention/items';

describe('item sizes, as DynamoDB bills them', () => {
  it('counts strings in UTF-8 bytes and numbers by significant digits', () => {
    expect(valueSize({ S: 'abc' })).toBe(3);
    expect(valueSize({ S: 'é' })).toBe(2);
    expect(valueSize({ N: '100' })).toBe(2);
    expect(valueSize({ N: '123456' })).toBe(4);
    expect(valueSize({ N: '-0.00123' })).toBe(3);
    expect(valueSize({ BOOL: true })).toBe(1);
    expect(valueSize({ NULL: true })).toBe(1);
    expect(valueSize({ B: Buffer.from('abcd').toString('base64') })).toBe(4);
  });

  it('adds 3 bytes per list or map and 1 per element', () => {
    expect(valueSize({ L: [{ S: 'ab' }, { N: '1' }] })).toBe(3 + (1 + 2) + (1 + 2));
    expect(valueSize({ M: { k: { S: 'v' } } })).toBe(3 + 1 + 1 + 1);
    expect(itemSize({ pk: { S: 'ACCOUNT#a' }, n: { N: '7' } })).toBe(2 + 9 + 1 + 2);
  });

  it('bills whole kilobytes, twice for a transactional write', () => {
    expect(writeUnits(10, false)).toBe(1);
    expect(writeUnits(1024, true)).toBe(2);
    expect(writeUnits(1025, true)).toBe(4);
  });
});

describe('the items of a transaction', () => {
  it('names each item by table and key, a Put by the key attributes of its item', () => {
    const items = transactItems(
      {
        TransactItems: [
          { Put: { TableName: 't', Item: { x: { S: '1' }, sk: { S: 's' }, pk: { S: 'p' } } } },
          { Update: { TableName: 't', Key: { sk: { S: 's' }, pk: { S: 'p' } } } },
          { ConditionCheck: { TableName: 't', Key: { pk: { S: 'q' }, sk: { S: 's' } } } },
        ],
      },
      () => ['pk', 'sk'],
    );
    expect(items.map((i) => i.writes)).toEqual([true, true, false]);
    const [put, change] = items.map((i) => itemId(i.table, i.key));
    expect(put).toBe(change);
  });
});

describe('the write budget', () => {
  it('refills continuously and never holds more than one second of units', () => {
    let now = 0;
    const budget = new WriteBudget(10, () => now);
    const cost = new Map([['a', 6]]);
    expect(budget.take(cost).ok).toBe(true);
    expect(budget.take(cost).ok).toBe(false);
    now = 200; // +2 units: 6 now
    expect(budget.take(cost).ok).toBe(true);
    now = 60_000;
    expect(budget.take(new Map([['a', 10]])).ok).toBe(true);
    expect(budget.take(new Map([['a', 1]])).ok).toBe(false);
  });

  it('takes from every item of a write or from none', () => {
    let now = 0;
    const budget = new WriteBudget(4, () => now);
    expect(budget.take(new Map([['a', 4]])).ok).toBe(true);
    const refused = budget.take(
      new Map([
        ['a', 2],
        ['b', 2],
      ]),
    );
    expect(refused).toEqual({ ok: false, over: new Set(['a']) });
    now = 500; // a has 2 again; b was not charged
    expect(
      budget.take(
        new Map([
          ['a', 2],
          ['b', 4],
        ]),
      ).ok,
    ).toBe(true);
  });
});
