import { describe, expect, it } from 'vitest';
import { contentionLine } from '../../../../../local/services/contention/service';

describe('the contention lines npm start prints', () => {
  it('says what the last interval committed, cancelled and throttled, and the totals', () => {
    const before = {
      transactions: 10,
      forwarded: 10,
      conflicts: 4,
      plainConflicts: 0,
      throttled: 1,
      heldMs: 50,
      repeatedCommits: {},
    };
    const after = {
      transactions: 25,
      forwarded: 25,
      conflicts: 30,
      plainConflicts: 2,
      throttled: 3,
      heldMs: 90,
      repeatedCommits: { 'ledger|a': 15 },
    };
    expect(contentionLine(after, before)).toBe(
      '15 transactions committed (items held 2.7 ms each), 26 cancelled for a held item (TransactionConflict), 2 plain ' +
        'writes refused (TransactionConflictException), 2 throttled; total 25 committed, 30 ' +
        'conflicts, 3 throttled',
    );
  });
});
