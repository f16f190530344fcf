import { describe, expect, it } from 'vitest';
import type { AccountRecord } from '../../../../functions/domain/accounts/model';
import { UnavailableError } from '../../../../functions/domain/shared/errors';
import type { EffectiveHistory } from '../../../../functions/domain/statements/model';
import { fakeStatementPort, statementServiceOn } from '../../../support/fakes/ledger/statements';

/**
 * docs/contract.md §31, §36: a statement whose effective-index reads trail the month sums (the
 * entry counts written with them) reads again up to 3 times, then answers 503, never totals
 * that disagree with its items. Full months only; months summed before the counts are not held.
 */

const account = {
  id: 'a1',
  ownerId: 'alice',
  currency: 'EUR',
  balance: 30,
  available: 30,
  overdraftLimit: 0,
  status: 'open',
  version: 3,
  creditIntake: 'direct',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-03-01T00:00:00.000Z',
} as AccountRecord;
const history: EffectiveHistory = {
  opening: 0,
  since: '1970-01-01T00:00:00.000Z',
  months: [
    { month: '2026-01', credits: 10, debits: 0 },
    { month: '2026-02', credits: 20, debits: 0, entries: 2 },
  ],
};
const window = { from: '2026-01-15T00:00:00.000Z', to: '2026-03-10T00:00:00.000Z', limit: 10 };

function service(counts: number[]) {
  const port = fakeStatementPort({
    getEffectiveAccount: async () => ({ account, history }),
    countEffective: async () => counts.shift() ?? 2,
  });
  const statements = statementServiceOn(port);
  return { port, statements };
}

describe('statements held to the month sums (docs/contract.md §31, §36)', () => {
  it('reads again while the index trails, and answers once it caught up', async () => {
    const { port, statements } = service([1, 1, 1]);
    const statement = await statements.statement('alice', 'a1', window, new Date());
    expect(statement.totalCredits).toBe(20);
    // Only the full month February is counted: 3 trailing reads, the 4th caught up.
    expect(port.countEffective.mock.calls).toHaveLength(4);
    expect(port.countEffective).toHaveBeenCalledWith('a1', {
      from: '2026-02-01T00:00:00.000Z',
      to: '2026-03-01T00:00:00.000Z',
    });
  });

  it('is 503 when the index still trails after 3 more reads', async () => {
    const { port, statements } = service([1, 1, 1, 1]);
    await expect(statements.statement('alice', 'a1', window, new Date())).rejects.toBeInstanceOf(
      UnavailableError,
    );
    expect(port.countEffective.mock.calls).toHaveLength(4);
    expect(port.statementItems).not.toHaveBeenCalled();
  });
});
