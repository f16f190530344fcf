import type { Mocked } from 'vitest';
import type { LedgerTransactionPort } from '../../../../functions/domain/ledger-transactions/port';
import { fakeOf, RECORDED } from '../fake';

/**
 * `LedgerTransactionPort`: the transaction commits, nothing is stored (every account read is
 * missing), unless the test says otherwise.
 */
export function fakeLedgerTransactionPort(
  overrides: Partial<LedgerTransactionPort> = {},
): Mocked<LedgerTransactionPort> {
  return fakeOf<LedgerTransactionPort>(
    {
      recordResponse: async () => RECORDED,
      findRecord: async () => undefined,
      getLedgerTransaction: async () => undefined,
      getAccounts: async (ids) => ids.map(() => undefined),
    },
    overrides,
  );
}
