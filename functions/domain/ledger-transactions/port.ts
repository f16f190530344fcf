import type { LedgerTransactionRecord } from '../accounts/ledger-transaction-record';
import type { AccountRecord } from '../accounts/model';
import type { ResponseRecorder } from '../idempotency/port';

/** The reads of ledger transactions; one is written by its movement command (§23). */
export interface LedgerTransactionPort extends ResponseRecorder {
  getLedgerTransaction(id: string): Promise<LedgerTransactionRecord | undefined>;
  /** The accounts by id, in order (undefined: missing), strongly consistent. */
  getAccounts(accountIds: readonly string[]): Promise<(AccountRecord | undefined)[]>;
}
