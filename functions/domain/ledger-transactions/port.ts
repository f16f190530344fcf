import type { AccountRecord } from '../accounts/model';
import type { SettledWrite } from '../idempotency/idempotent-command';
import type { IdempotencyClaim, ResponseRecorder } from '../idempotency/port';
import type { LegsRejection, MovementLeg } from '../movements/legs';
import type { LedgerTransactionRecord } from './model';

/** Everything a ledger transaction writes besides its dedup record (a claim or an inbox item). */
export interface LedgerTransactionWrite {
  readonly record: LedgerTransactionRecord;
  readonly legs: readonly MovementLeg[];
}

export type LedgerTransactionWriteResult = SettledWrite | LegsRejection;

export interface LedgerTransactionPort extends ResponseRecorder {
  /**
   * ONE transaction: the claim, every leg's guarded account change, entry and pointer, the
   * record and the first debited account's paymentId item.
   */
  createLedgerTransaction(
    claim: IdempotencyClaim,
    write: LedgerTransactionWrite,
  ): Promise<LedgerTransactionWriteResult>;
  getLedgerTransaction(id: string): Promise<LedgerTransactionRecord | undefined>;
  /** The accounts by id, in order (undefined: missing), strongly consistent. */
  getAccounts(accountIds: readonly string[]): Promise<(AccountRecord | undefined)[]>;
}
