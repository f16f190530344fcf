import type { Mocked } from 'vitest';
import type { LedgerPort } from '../../../../functions/domain/accounts/port';
import { fakeOf, RECORDED } from '../fake';

/** `LedgerPort`: every write commits, every read finds nothing, unless the test says otherwise. */
export function fakeLedgerPort(overrides: Partial<LedgerPort> = {}): Mocked<LedgerPort> {
  return fakeOf<LedgerPort>(
    {
      createAccount: async () => ({ kind: 'committed' }),
      closeAccount: async () => ({ kind: 'committed' }),
      recordResponse: async () => RECORDED,
      findRecord: async () => undefined,
      getAccount: async () => undefined,
      getAccountMetadata: async () => undefined,
      listEntries: async () => ({ items: [], nextCursor: null }),
      listEventSources: async () => [],
    },
    overrides,
  );
}
