import type { Mocked } from 'vitest';
import type { BatchPort } from '../../../../functions/domain/batches/port';
import { fakeOf, RECORDED } from '../fake';

/** `BatchPort`: every shared transaction commits, nothing is stored, unless the test says otherwise. */
export function fakeBatchPort(overrides: Partial<BatchPort> = {}): Mocked<BatchPort> {
  return fakeOf<BatchPort>(
    {
      writeMovements: async () => ({ kind: 'committed' }),
      recordResponse: async () => RECORDED,
      findRecord: async () => undefined,
    },
    overrides,
  );
}
