import type { Mocked } from 'vitest';
import type { MovementPort } from '../../../../functions/domain/movements/port';
import { fakeOf } from '../fake';

/** `MovementPort`: every movement commits, unless the test says otherwise. */
export function fakeMovementPort(overrides: Partial<MovementPort> = {}): Mocked<MovementPort> {
  return fakeOf<MovementPort>(
    {
      post: async () => ({ kind: 'committed' }),
      transfer: async () => ({ kind: 'committed' }),
      ledgerTransaction: async () => ({ kind: 'committed' }),
      reverse: async () => ({ kind: 'committed' }),
      capture: async () => ({ kind: 'committed' }),
    },
    overrides,
  );
}
