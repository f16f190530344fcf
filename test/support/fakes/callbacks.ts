import type { Mocked } from 'vitest';
import type { CallbackPort } from '../../../functions/domain/callbacks/port';
import { fakeOf } from './fake';

/** `CallbackPort`: no execution is found and every write commits, unless the test says otherwise. */
export function fakeCallbackPort(overrides: Partial<CallbackPort> = {}): Mocked<CallbackPort> {
  return fakeOf<CallbackPort>(
    {
      findExecution: async () => undefined,
      applyCallback: async () => 'committed',
    },
    overrides,
  );
}
