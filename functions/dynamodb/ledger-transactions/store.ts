import type { LedgerTransactionPort } from '../../domain/ledger-transactions/port';
import { toAccountRecord } from '../accounts/items';
import { createLedgerStore } from '../accounts/store';
import { keys } from '../table/keys';
import { getItem, getItems } from '../table/reads';
import { retryPolicy, type StoreOptions } from '../table/transact';
import { toLedgerTransactionRecord } from './items';

/**
 * The DynamoDB adapter of ledger transactions (docs/contract.md §16). A first request, its
 * replay and a reused key each cost ONE TransactWriteItems: the claim's ALL_OLD answers the
 * latter two, the accounts' ALL_OLD explains a refusal.
 */
export function createLedgerTransactionStore(options: StoreOptions): LedgerTransactionPort {
  const { client, tableName } = options;
  const _retry = retryPolicy(options);
  const ledger = createLedgerStore(options);
  return {
    recordResponse: (claim) => ledger.recordResponse(claim),
    findRecord: (key) => ledger.findRecord(key),

    async getLedgerTransaction(id) {
      const item = await getItem(client, tableName, keys.ledgerTransaction(id));
      return item ? toLedgerTransactionRecord(item) : undefined;
    },

    async getAccounts(accountIds) {
      const items = await getItems(client, tableName, accountIds.map(keys.account));
      return items.map((item) => (item ? toAccountRecord(item) : undefined));
    },
  };
}
