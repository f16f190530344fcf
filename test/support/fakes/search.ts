import type { Mocked } from 'vitest';
import type {
  IndexQueue,
  IndexSourcePort,
  SearchIndexPort,
  SearchReadPort,
} from '../../../functions/domain/search/port';
import { fakeOf } from './fake';

/** `SearchReadPort`: counts 0 and finds nothing, unless the test says otherwise. */
export function fakeSearchReadPort(
  overrides: Partial<SearchReadPort> = {},
): Mocked<SearchReadPort> {
  return fakeOf<SearchReadPort>(
    {
      counts: async (_owner, _kind, pairs) => pairs.map(() => 0),
      query: async () => ({ hits: [], nextCursor: null }),
      accounts: async (ids) => ids.map(() => undefined),
      entries: async (hits) => hits.map(() => undefined),
      account: async () => undefined,
      readHead: async () => undefined,
    },
    overrides,
  );
}

/** `SearchIndexPort`: nothing indexed, every write lands, unless the test says otherwise. */
export function fakeSearchIndexPort(
  overrides: Partial<SearchIndexPort> = {},
): Mocked<SearchIndexPort> {
  return fakeOf<SearchIndexPort>(
    {
      indexed: async () => undefined,
      write: async () => ({ kind: 'written' }),
      readHead: async () => undefined,
      raiseHead: async () => undefined,
    },
    overrides,
  );
}

/** `IndexSourcePort`: finds nothing unless the test says otherwise. */
export function fakeIndexSource(overrides: Partial<IndexSourcePort> = {}): Mocked<IndexSourcePort> {
  return fakeOf<IndexSourcePort>(
    {
      account: async () => undefined,
      records: async () => [],
      entry: async () => undefined,
    },
    overrides,
  );
}

/** `IndexQueue`: accepts every job unless the test says otherwise. */
export function fakeIndexQueue(overrides: Partial<IndexQueue> = {}): Mocked<IndexQueue> {
  return fakeOf<IndexQueue>({ send: async () => [] }, overrides);
}
