import type {
  LedgerTransactionPort,
  LedgerTransactionWriteResult,
} from '../../domain/ledger-transactions/port';
import { toAccountRecord } from '../accounts/items';
import { createLedgerStore } from '../accounts/store';
import { claimedFailure, claimItem, unexpectedFailure } from '../idempotency/command';
import { legsRejection } from '../movements/legs';
import { keys } from '../table/keys';
import { getItem, getItems } from '../table/reads';
import {
  retryPolicy,
  type StoreOptions,
  type TransactPart,
  transactWithRetry,
} from '../table/transact';
import {
  type LedgerTransactionRole,
  ledgerTransactionParts,
  toLedgerTransactionRecord,
} from './items';

/**
 * The DynamoDB adapter of ledger transactions (docs/contract.md §16). A first request, its
 * replay and a reused key each cost ONE TransactWriteItems: the claim's ALL_OLD answers the
 * latter two, the accounts' ALL_OLD explains a refusal.
 */
export function createLedgerTransactionStore(options: StoreOptions): LedgerTransactionPort {
  const { client, tableName } = options;
  const retry = retryPolicy(options);
  const ledger = createLedgerStore(options);
  return {
    async createLedgerTransaction(claim, write): Promise<LedgerTransactionWriteResult> {
      const parts: TransactPart<LedgerTransactionRole | 'claim'>[] = [
        { role: 'claim', item: claimItem(tableName, claim), decisive: true },
        ...ledgerTransactionParts(tableName, write),
      ];
      const outcome = await transactWithRetry(client, parts, retry);
      if (outcome.kind === 'committed') return outcome;
      const result = claimedFailure(outcome.failed) ?? legsRejection(outcome.failed);
      if (!result) throw unexpectedFailure(outcome.failed);
      return result;
    },

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
