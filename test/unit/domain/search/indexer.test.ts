import { describe, expect, it } from 'vitest';
import type { AccountRecord, LedgerEntry } from '../../../../functions/domain/accounts/model';
import type { JournalRecord } from '../../../../functions/domain/journal/model';
import { SearchIndexer } from '../../../../functions/domain/search/indexer';
import {
  entryPairs,
  type IndexedObject,
  planIndex,
} from '../../../../functions/domain/search/model';
import { silentLog } from '../../../../functions/domain/shared/log';
import { fakeIndexSource, fakeSearchIndexPort } from '../../../support/fakes/search';

const at = '2026-01-01T00:00:00.000Z';
const account: AccountRecord = {
  id: 'a1',
  ownerId: 'alice',
  currency: 'EUR',
  balance: 0,
  available: 0,
  overdraftLimit: 0,
  status: 'open',
  name: 'Main Shop',
  version: 3,
  creditIntake: 'direct',
  createdAt: at,
  updatedAt: at,
};
const record = (sequence: number, extra: Partial<JournalRecord>): JournalRecord => ({
  accountId: 'a1',
  sequence,
  kind: 'credit',
  balanceDelta: 1,
  availableDelta: 1,
  balanceAfter: sequence,
  availableAfter: sequence,
  committedAt: `2026-01-01T00:00:0${sequence}.000Z`,
  ...extra,
});
const entry = (id: string, extra: Partial<LedgerEntry> = {}): LedgerEntry => ({
  id,
  accountId: 'a1',
  type: 'credit',
  amount: 1,
  currency: 'EUR',
  origin: 'http',
  createdAt: at,
  effectiveAt: at,
  ...extra,
});

describe('what is searchable (§36)', () => {
  it('finds entries by metadata, reference and paymentId; reversals by reference only', () => {
    const full = entry('e', { metadata: { order: '1' }, reference: 'r', paymentId: 'p' });
    expect(entryPairs(full)).toEqual([
      { field: 'metadata.order', value: '1' },
      { field: 'reference', value: 'r' },
      { field: 'paymentId', value: 'p' },
    ]);
    expect(entryPairs({ ...full, type: 'reversal' })).toEqual([{ field: 'reference', value: 'r' }]);
  });

  it('plans removals and additions against the record of indexed pairs', () => {
    const object = (pairs: [string, string][]): IndexedObject => ({
      kind: 'account',
      id: 'a1',
      ownerId: 'alice',
      sortAt: at,
      pairs: pairs.map(([field, value]) => ({ field, value })),
    });
    const before = object([
      ['*', '*'],
      ['metadata.order', '1'],
      ['metadata.keep', 'x'],
    ]);
    const after = object([
      ['*', '*'],
      ['metadata.order', '2'],
      ['metadata.keep', 'x'],
    ]);
    expect(planIndex(before, after)).toEqual({
      put: after.pairs,
      added: [{ field: 'metadata.order', value: '2' }],
      removed: [{ field: 'metadata.order', value: '1' }],
    });
    expect(planIndex(after, after)).toBeUndefined();
    expect(planIndex(undefined, object([]))).toBeUndefined();
  });
});

describe('SearchIndexer', () => {
  it('indexes the entries of a journal job from its first record, skipping holds, then raises the head', async () => {
    const index = fakeSearchIndexPort();
    const source = fakeIndexSource({
      account: async () => ({ account }),
      records: async () => [
        record(1, { entryId: 'e1' }),
        record(2, { kind: 'hold_placed', holdId: 'h1' }),
        record(3, { entryId: 'e3' }),
      ],
      entry: async (_a, id) => entry(id, { reference: `ref-${id}` }),
    });
    await new SearchIndexer({ index, source, log: silentLog }).run({
      kind: 'journal',
      accountId: 'a1',
      from: 1,
      through: 3,
    });
    expect(source.records).toHaveBeenCalledWith('a1', 1, 3);
    expect(index.write.mock.calls.map(([, next]) => [next.id, next.ownerId, next.pairs])).toEqual([
      ['e1', 'alice', [{ field: 'reference', value: 'ref-e1' }]],
      ['e3', 'alice', [{ field: 'reference', value: 'ref-e3' }]],
    ]);
    expect(index.raiseHead).toHaveBeenCalledWith('a1', {
      sequence: 3,
      committedAt: '2026-01-01T00:00:03.000Z',
    });
  });

  it('starts after its head and writes nothing for a job it already covered', async () => {
    const index = fakeSearchIndexPort({ readHead: async () => ({ sequence: 5, committedAt: at }) });
    const source = fakeIndexSource({ account: async () => ({ account }) });
    const indexer = new SearchIndexer({ index, source, log: silentLog });
    await indexer.run({ kind: 'journal', accountId: 'a1', from: 2, through: 5 });
    expect(source.records).not.toHaveBeenCalled();
    await indexer.run({ kind: 'journal', accountId: 'a1', from: 5, through: 8 });
    expect(source.records).toHaveBeenCalledWith('a1', 6, 8);
  });

  it('indexes an account under every-account, its metadata and its lower-cased name; reads again when moved', async () => {
    let writes = 0;
    const index = fakeSearchIndexPort({
      write: async () => (++writes === 1 ? { kind: 'moved' } : { kind: 'written' }),
    });
    const source = fakeIndexSource({
      account: async () => ({ account, metadata: { order: '42' } }),
    });
    await new SearchIndexer({
      index,
      source,
      log: silentLog,
      optimistic: { sleep: async () => {} },
    }).run({ kind: 'account', accountId: 'a1' });
    expect(index.indexed).toHaveBeenCalledTimes(2);
    expect(index.write.mock.calls[1]?.[1]).toEqual({
      kind: 'account',
      id: 'a1',
      ownerId: 'alice',
      sortAt: at,
      name: 'main shop',
      pairs: [
        { field: '*', value: '*' },
        { field: 'metadata.order', value: '42' },
      ],
    });
  });
});
