import type { AccountRecord, LedgerEntry } from '../accounts/model';
import type { SettledWrite } from '../idempotency/idempotent-command';
import type { IdempotencyClaim, ResponseRecorder } from '../idempotency/port';
import type { LedgerTransactionRecord } from '../ledger-transactions/model';
import type { MovementLeg, RejectedLeg } from '../movements/legs';
import type { TransferRecord } from '../transfers/model';
import type { OriginalLocation } from './model';

/** An entry found by id: through its pointer (newer entries) or a bounded Query (older ones). */
export interface FoundEntry {
  readonly entry: LedgerEntry;
  readonly pointer: boolean;
}

/** What the reversal's ONE transaction writes besides its claim. */
export interface ReversalWrite {
  /** Whose `reversedAmount` grows by `reversing`, only while it stays ≤ `amount` − `reversing`. */
  readonly original: {
    readonly location: OriginalLocation;
    readonly amount: number;
    readonly reversing: number;
  };
  readonly legs: readonly MovementLeg[];
}

/**
 * A cancelled reversal's facts: the legs whose accounts refused (as they stood), and the
 * original's `reversedAmount` when its guard failed (undefined: it held).
 */
export interface ReversalRejection {
  readonly kind: 'reversal_rejected';
  readonly legs: readonly RejectedLeg[];
  readonly reversedAmount?: number;
}

export interface ReversalPort extends ResponseRecorder {
  /** The account and the entry, in one read where the entry has a pointer (docs/contract.md §16). */
  findEntry(
    accountId: string,
    entryId: string,
  ): Promise<{ readonly account?: AccountRecord; readonly found?: FoundEntry }>;
  getTransfer(transferId: string): Promise<TransferRecord | undefined>;
  getLedgerTransaction(id: string): Promise<LedgerTransactionRecord | undefined>;
  /** ONE transaction: the claim, the original's guarded `reversedAmount`, every leg. */
  reverse(claim: IdempotencyClaim, write: ReversalWrite): Promise<SettledWrite | ReversalRejection>;
}
