import type { Mocked } from 'vitest';
import type { ReversalPort } from '../../../../functions/domain/reversals/port';
import { fakeOf, RECORDED } from '../fake';

/** `ReversalPort`: the reversal commits, no original is found, unless the test says otherwise. */
export function fakeReversalPort(overrides: Partial<ReversalPort> = {}): Mocked<ReversalPort> {
  return fakeOf<ReversalPort>(
    {
      findEntry: async () => ({}),
      getTransfer: async () => undefined,
      getLedgerTransaction: async () => undefined,
      recordResponse: async () => RECORDED,
      findRecord: async () => undefined,
    },
    overrides,
  );
}
