import type { AccountRecord } from '../accounts/model';
import type { LedgerService } from '../accounts/service';
import type { IdempotencyRecord, StoredResponse } from '../idempotency/model';
import type { IdempotencyClaim, ResponseRecorder } from '../idempotency/port';
import type { LedgerTransactionService } from '../ledger-transactions/service';
import type { TransferService } from '../transfers/service';
import type { BatchMode, OperationResult, PlannedMovement } from './model';

/** What a cancelled write of movements reports: every failed condition, by movement. */
export interface MovementsRefused {
  readonly kind: 'refused';
  /** Movements whose claim a live record holds (a replay or a reused key), by index. */
  readonly claimed: ReadonlyMap<number, IdempotencyRecord>;
  /** Accounts whose guard failed, as they stood (undefined: missing). */
  readonly accounts: ReadonlyMap<string, AccountRecord | undefined>;
  /** Movements whose paymentId item exists already, by index. */
  readonly payments: ReadonlySet<number>;
  /** The batch's own record, when the batch's claim is what failed. */
  readonly batch?: IdempotencyRecord;
}

export type MovementsWriteResult = { readonly kind: 'committed' } | MovementsRefused;

export interface MovementsWriteOptions {
  /** The batch's own claim, written in the same transaction (an atomic batch). */
  readonly batchClaim?: IdempotencyClaim;
  /**
   * Adds a condition that never holds, so nothing commits and every other condition is
   * reported: which of these movements would have been refused.
   */
  readonly probe?: boolean;
}

/** Storage of batches (docs/contract.md §25). */
export interface BatchPort extends ResponseRecorder {
  /**
   * ONE transaction: every movement's claim, entries, pointers, record and paymentId item, and
   * ONE guarded update per account carrying all its changes in order.
   */
  writeMovements(
    movements: readonly PlannedMovement[],
    options: MovementsWriteOptions,
  ): Promise<MovementsWriteResult>;
}

/** Renders a batch's answer, embedding each operation's stored response as it is (the transport's format). */
export interface BatchPresenter {
  batch(mode: BatchMode, results: readonly OperationResult[]): StoredResponse;
}

/**
 * The single routes' commands a batch operation runs under (docs/contract.md §25): the
 * same claim scope, fingerprint, rules and answers as sending the operation alone.
 */
export interface SingleRouteCommands {
  readonly postings: LedgerService;
  readonly transfers: TransferService;
  readonly ledgerTransactions: LedgerTransactionService;
}
