import type { Mocked } from 'vitest';
import { NO_SUMS } from '../../../../functions/domain/statements/model';
import type { StatementPort } from '../../../../functions/domain/statements/port';
import { fakeOf, RECORDED } from '../fake';

/** `StatementPort`: no account, no entries, every write committed, unless the test says so. */
export function fakeStatementPort(overrides: Partial<StatementPort> = {}): Mocked<StatementPort> {
  return fakeOf<StatementPort>(
    {
      getEffectiveAccount: async () => undefined,
      effectiveSums: async () => NO_SUMS,
      countEffective: async () => 0,
      statementItems: async () => ({ items: [], nextCursor: null }),
      closePeriod: async () => ({ kind: 'committed' }),
      recordResponse: async () => RECORDED,
      findRecord: async () => undefined,
    },
    overrides,
  );
}
