import type { LedgerTransactionRecord } from '../accounts/ledger-transaction-record';
import type { AccountRecord, LedgerEntry } from '../accounts/model';
import type { TransferRecord } from '../accounts/transfer-record';
import type { ResponseRecorder } from '../idempotency/port';

/** An entry found by id: through its pointer (newer entries) or a bounded Query (older ones). */
export interface FoundEntry {
  readonly entry: LedgerEntry;
  readonly pointer: boolean;
}

/** The reads of reversals' originals; a reversal is written by its movement command (§23). */
export interface ReversalPort extends ResponseRecorder {
  /**
   * The account and the entry, in one read where the entry has a pointer (docs/contract.md §16);
   * `pending` when the entry is a credit a deferred account has not posted yet (§24).
   */
  findEntry(
    accountId: string,
    entryId: string,
  ): Promise<{
    readonly account?: AccountRecord;
    readonly found?: FoundEntry;
    readonly pending?: boolean;
  }>;
  getTransfer(transferId: string): Promise<TransferRecord | undefined>;
  getLedgerTransaction(id: string): Promise<LedgerTransactionRecord | undefined>;
}
