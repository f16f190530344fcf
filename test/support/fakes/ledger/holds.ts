import type { Mocked } from 'vitest';
import type { HoldPort } from '../../../../functions/domain/holds/port';
import { fakeOf, RECORDED } from '../fake';

/** `HoldPort`: placing and settling commit, reads find nothing, unless the test says otherwise. */
export function fakeHoldPort(overrides: Partial<HoldPort> = {}): Mocked<HoldPort> {
  return fakeOf<HoldPort>(
    {
      placeHold: async () => ({ kind: 'committed' }),
      voidHold: async () => ({ kind: 'committed' }),
      recordResponse: async () => RECORDED,
      findRecord: async () => undefined,
      getHold: async () => undefined,
      getAccount: async () => undefined,
      listHolds: async () => ({ items: [], nextCursor: null }),
    },
    overrides,
  );
}
