import type { Mocked } from 'vitest';
import type { TransferPort } from '../../../../functions/domain/transfers/port';
import { fakeOf, RECORDED } from '../fake';

/** `TransferPort`: no transfer is stored, unless the test says otherwise. */
export function fakeTransferPort(overrides: Partial<TransferPort> = {}): Mocked<TransferPort> {
  return fakeOf<TransferPort>(
    {
      recordResponse: async () => RECORDED,
      findRecord: async () => undefined,
      getTransfer: async () => undefined,
    },
    overrides,
  );
}
