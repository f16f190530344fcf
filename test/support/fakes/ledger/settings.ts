import type { Mocked } from 'vitest';
import type { EntryReadPort, SettingsPort } from '../../../../functions/domain/accounts/port';
import { fakeOf, RECORDED } from '../fake';

/** `SettingsPort`: every write commits, every read finds nothing, unless the test says otherwise. */
export function fakeSettingsPort(overrides: Partial<SettingsPort> = {}): Mocked<SettingsPort> {
  return fakeOf<SettingsPort>(
    {
      getAccount: async () => undefined,
      updateSettings: async () => ({ kind: 'committed' }),
      recordResponse: async () => RECORDED,
      findRecord: async () => undefined,
    },
    overrides,
  );
}

/** `EntryReadPort`: finds nothing unless the test says otherwise. */
export function fakeEntryReadPort(overrides: Partial<EntryReadPort> = {}): Mocked<EntryReadPort> {
  return fakeOf<EntryReadPort>(
    {
      getAccount: async () => undefined,
      postedEntry: async () => undefined,
      pendingEntry: async () => undefined,
      pendingCredits: async () => ({ items: [], nextCursor: null }),
    },
    overrides,
  );
}
