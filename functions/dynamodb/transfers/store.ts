import type { TransferPort, TransferWriteResult } from '../../domain/transfers/port';
import { createLedgerStore } from '../accounts/store';
import { claimedFailure, claimItem, unexpectedFailure } from '../idempotency/command';
import { keys } from '../table/keys';
import { getItem } from '../table/reads';
import {
  retryPolicy,
  type StoreOptions,
  type TransactPart,
  transactWithRetry,
} from '../table/transact';
import { type TransferRole, toTransferRecord, transferParts, transferRejection } from './items';

type Role = TransferRole | 'claim';

/**
 * The DynamoDB adapter for HTTP transfers (docs/contract.md §10). A first request, its replay
 * and a reused key each cost ONE TransactWriteItems: the claim's ALL_OLD answers the latter two.
 */
export function createTransferStore(options: StoreOptions): TransferPort {
  const { client, tableName } = options;
  const retry = retryPolicy(options);
  const ledger = createLedgerStore(options);
  return {
    async transfer(claim, write): Promise<TransferWriteResult> {
      const parts: TransactPart<Role>[] = [
        { role: 'claim', item: claimItem(tableName, claim), decisive: true },
        ...transferParts(tableName, write),
      ];
      const outcome = await transactWithRetry(client, parts, retry);
      if (outcome.kind === 'committed') return outcome;
      const result = claimedFailure(outcome.failed) ?? transferRejection(outcome.failed);
      if (!result) throw unexpectedFailure(outcome.failed);
      return result;
    },

    recordResponse: (claim) => ledger.recordResponse(claim),
    findRecord: (key) => ledger.findRecord(key),

    async getTransfer(transferId) {
      const item = await getItem(client, tableName, keys.transfer(transferId));
      return item ? toTransferRecord(item) : undefined;
    },
  };
}
