import type { Mocked } from 'vitest';
import type { JournalReadPort, JournalWritePort } from '../../../functions/domain/journal/port';
import type { JournalEventsPort } from '../../../functions/domain/journal-projector/port';
import { fakeOf } from './fake';

/** `JournalWritePort`: no head, every append commits, no stored records, unless told otherwise. */
export function fakeJournalWritePort(
  overrides: Partial<JournalWritePort> = {},
): Mocked<JournalWritePort> {
  return fakeOf<JournalWritePort>(
    {
      readHead: async () => undefined,
      append: async () => ({ kind: 'committed' }),
      readRecords: async () => [],
      markForReconcile: async () => {},
    },
    overrides,
  );
}

/** `JournalReadPort`: no account, empty journal, unless the test says otherwise. */
export function fakeJournalReadPort(
  overrides: Partial<JournalReadPort> = {},
): Mocked<JournalReadPort> {
  return fakeOf<JournalReadPort>(
    {
      getAccount: async () => undefined,
      listRecords: async () => ({ items: [], nextAfterSequence: null }),
      firstRecordAfter: async () => undefined,
    },
    overrides,
  );
}

/** `JournalEventsPort`: every event accepted. */
export function fakeJournalEvents(
  overrides: Partial<JournalEventsPort> = {},
): Mocked<JournalEventsPort> {
  return fakeOf<JournalEventsPort>({ publish: async () => [] }, overrides);
}
