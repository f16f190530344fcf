import type { IndexSourcePort } from '../../domain/search/port';
import { toAccountRecord } from '../accounts/items';
import { toMetadata } from '../accounts/metadata';
import { createEntryReadStore } from '../accounts/reads';
import { createJournalStore } from '../journal/store';
import { keys } from '../table/keys';
import { getItems } from '../table/reads';
import type { StoreOptions } from '../table/transact';

/** What the indexer reads of the ledger: accounts, journal records, entries (§34). */
export function createIndexSource(options: StoreOptions): IndexSourcePort {
  const { client, tableName } = options;
  const journal = createJournalStore(options);
  const entries = createEntryReadStore(options);
  return {
    async account(accountId) {
      const [account, meta] = await getItems(client, tableName, [
        keys.account(accountId),
        keys.accountMetadata(accountId),
      ]);
      if (!account) return undefined;
      const metadata = toMetadata(meta?.metadata);
      return { account: toAccountRecord(account), ...(metadata ? { metadata } : {}) };
    },
    records: (accountId, from, to) => journal.readRecords(accountId, from, to),
    entry: (accountId, entryId) => entries.postedEntry(accountId, entryId),
  };
}
