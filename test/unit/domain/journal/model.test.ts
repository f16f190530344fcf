import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AccountChange,
  type AccountImage,
  headAfter,
  recordsOf,
  valuesBefore,
} from '../../../../functions/domain/journal/model';

const change = (balanceDelta: number, availableDelta: number, at: string): AccountChange => ({
  kind: balanceDelta >= 0 ? 'credit' : 'debit',
  balanceDelta,
  availableDelta,
  at,
  entryId: 'e',
});

const image = (over: Partial<AccountImage>): AccountImage => ({
  accountId: 'a1',
  version: 1,
  balance: 0,
  available: 0,
  changes: [],
  journalFromCreation: true,
  ...over,
});

describe('records of one account update (docs/contract.md §15)', () => {
  it('reads the after-values backwards from the image and numbers them up to version', () => {
    const records = recordsOf(
      image({
        version: 7,
        balance: 150,
        available: 120,
        changes: [
          change(100, 100, '2026-12-01T10:00:00.000Z'),
          {
            kind: 'hold_placed',
            balanceDelta: 0,
            availableDelta: -30,
            at: '2026-12-01T10:00:01.000Z',
            holdId: 'h',
          },
          change(-50, -50, '2026-12-01T10:00:02.000Z'),
        ],
      }),
      {
        accountId: 'a1',
        lastSequence: 4,
        balanceAfter: 100,
        availableAfter: 100,
        committedAt: '2026-12-01T09:00:00.000Z',
      },
    );
    expect(records.map((r) => [r.sequence, r.balanceAfter, r.availableAfter])).toEqual([
      [5, 200, 200],
      [6, 200, 170],
      [7, 150, 120],
    ]);
    expect(records[0] && valuesBefore(records[0])).toEqual({ balance: 100, available: 100 });
    expect(records[1]).toMatchObject({ kind: 'hold_placed', holdId: 'h' });
    expect(records[1]).not.toHaveProperty('entryId');
    expect(headAfter(records)).toMatchObject({ lastSequence: 7, balanceAfter: 150 });
  });

  it('never lets committedAt go back, whatever the writers’ clocks say', () => {
    const records = recordsOf(
      image({
        version: 3,
        balance: 3,
        available: 3,
        changes: [
          change(1, 1, '2026-12-01T10:00:05.000Z'),
          change(1, 1, '2026-12-01T10:00:01.000Z'),
          change(1, 1, '2026-12-01T10:00:09.000Z'),
        ],
      }),
      undefined,
    );
    expect(records.map((r) => r.committedAt)).toEqual([
      '2026-12-01T10:00:05.000Z',
      '2026-12-01T10:00:05.000Z',
      '2026-12-01T10:00:09.000Z',
    ]);
    const later = recordsOf(
      image({
        version: 1,
        balance: 1,
        available: 1,
        changes: [change(1, 1, '2026-12-01T09:00:00.000Z')],
      }),
      {
        accountId: 'a1',
        lastSequence: 0,
        balanceAfter: 0,
        availableAfter: 0,
        committedAt: '2026-12-01T10:00:00.000Z',
      },
    );
    expect(later[0]?.committedAt).toBe('2026-12-01T10:00:00.000Z');
  });

  it('flags record 1 of an account older than the journal as opening, and only that one', () => {
    const old = recordsOf(
      image({
        version: 2,
        balance: 900,
        available: 900,
        journalFromCreation: false,
        changes: [
          change(5, 5, '2026-12-01T10:00:00.000Z'),
          change(5, 5, '2026-12-01T10:00:00.000Z'),
        ],
      }),
      undefined,
    );
    expect(old.map((r) => r.opening)).toEqual([true, undefined]);
    expect(old[0] && valuesBefore(old[0])).toEqual({ balance: 890, available: 890 });
    const fresh = recordsOf(
      image({
        version: 1,
        balance: 5,
        available: 5,
        changes: [change(5, 5, '2026-12-01T10:00:00.000Z')],
      }),
      undefined,
    );
    expect(fresh[0]).not.toHaveProperty('opening');
  });

  it('chains arithmetically for any list of changes (each after = previous after + delta)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e9, max: 1e9 }),
        fc.array(
          fc.tuple(fc.integer({ min: -1e6, max: 1e6 }), fc.integer({ min: -1e6, max: 1e6 })),
          { minLength: 1, maxLength: 49 },
        ),
        (start, deltas) => {
          const changes = deltas.map(([b, a]) => change(b, a, '2026-12-01T10:00:00.000Z'));
          const balance = start + deltas.reduce((s, [b]) => s + b, 0);
          const available = start + deltas.reduce((s, [, a]) => s + a, 0);
          const records = recordsOf(image({ version: 60, balance, available, changes }), undefined);
          let before = { balance: start, available: start };
          records.forEach((record, i) => {
            expect(record.sequence).toBe(60 - changes.length + 1 + i);
            expect(valuesBefore(record)).toEqual(before);
            before = { balance: record.balanceAfter, available: record.availableAfter };
          });
          expect(before).toEqual({ balance, available });
        },
      ),
    );
  });
});
