import type { Mocked } from 'vitest';
import type { StatementPort } from '../../../../functions/domain/statements/port';
import { fakeOf, RECORDED } from '../fake';

/** `StatementPort`: no account, no entries, every write committed, unless the test says so. */
export function fakeStatementPort(overrides: Partial<StatementPort> = {}): Mocked<StatementPort> {
  return fakeOf<StatementPort>(
    {
      getEffectiveAccount: async () => undefined,
      effectiveMovements: async () => [],
      countEffective: async () => 0,
      statementItems: async () => ({ items: [], nextCursor: null }),
      closePeriod: async () => ({ kind: 'committed' }),
      recordResponse: async () => RECORDED,
      findRecord: async () => undefined,
    },
    overrides,
  );
}
