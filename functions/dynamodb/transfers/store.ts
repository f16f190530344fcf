import type { TransferPort } from '../../domain/transfers/port';
import { createLedgerStore } from '../accounts/store';
import { keys } from '../table/keys';
import { getItem } from '../table/reads';
import type { StoreOptions } from '../table/transact';
import { toTransferRecord } from './items';

/**
 * The reads of transfers (docs/contract.md §10); the transfer's ONE transaction is the
 * movement store's (`dynamodb/movements/store.ts`).
 */
export function createTransferStore(options: StoreOptions): TransferPort {
  const { client, tableName } = options;
  const ledger = createLedgerStore(options);
  return {
    recordResponse: (claim) => ledger.recordResponse(claim),
    findRecord: (key) => ledger.findRecord(key),

    async getTransfer(transferId) {
      const item = await getItem(client, tableName, keys.transfer(transferId));
      return item ? toTransferRecord(item) : undefined;
    },
  };
}
