import type { AccountRecord } from '../accounts/model';
import type { LedgerService } from '../accounts/service';
import type { IdempotencyRecord, StoredResponse } from '../idempotency/model';
import type { IdempotencyClaim, ResponseRecorder } from '../idempotency/port';
import type { LedgerTransactionService } from '../ledger-transactions/service';
import type { IntakeRoutes } from '../movements/intake';
import type { TransferService } from '../transfers/service';
import type { BatchMode, OperationResult, PlannedMovement } from './model';

/** What a cancelled write of movements reports: every failed condition, by movement. */
export interface MovementsRefused {
  readonly kind: 'refused';
  /** Movements whose claim a live record holds (a replay or a reused key), by index. */
  readonly claimed: ReadonlyMap<number, IdempotencyRecord>;
  /** Account items whose guard failed, as they stood (undefined: missing). */
  readonly accounts: ReadonlyMap<string, AccountRecord | undefined>;
  /**
   * Accounts whose intake gate refused (docs/contract.md §24): the gate's copy of the account
   * (undefined: the gate is missing). Kept apart from `accounts`: a gate holds no money.
   */
  readonly gates: ReadonlyMap<string, AccountRecord | undefined>;
  /** Movements whose paymentId item exists already, by index. */
  readonly payments: ReadonlySet<number>;
  /** The batch's own record, when the batch's claim is what failed. */
  readonly batch?: IdempotencyRecord;
}

export type MovementsWriteResult = { readonly kind: 'committed' } | MovementsRefused;

/**
 * The lease an `independent` batch takes on its own key before any operation runs
 * (docs/contract.md §25): one copy of the batch at a time runs its operations, in request order.
 */
export interface BatchLease {
  /** The batch's idempotency scope (`ClaimKey.scopeId`): every body sent with the key shares it. */
  readonly scopeId: string;
  /** Random, the holder's own: only it releases the lease. */
  readonly token: string;
  /** Epoch ms: past it the lease is free (its holder crashed), and a copy takes it over. */
  readonly expiresAtMs: number;
}

/**
 * `held`: another copy's live lease, until `expiresAtMs`; it may have just answered, so the
 * record is read again.
 */
export type LeaseResult =
  | { readonly kind: 'taken' }
  | { readonly kind: 'held'; readonly expiresAtMs: number };

export interface MovementsWriteOptions {
  /** The batch's own claim, written in the same transaction (an atomic batch). */
  readonly batchClaim?: IdempotencyClaim;
  /**
   * Adds a condition that never holds, so nothing commits and every other condition is
   * reported: which of these movements would have been refused.
   */
  readonly probe?: boolean;
  /** Deferred accounts whose credit legs go through intake (docs/contract.md §24). */
  readonly intake?: IntakeRoutes;
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

  /**
   * The accounts of these ids as they stand (strongly consistent); a missing one is left out.
   * An atomic batch reads them to route its credits before it is sized (docs/contract.md §25).
   */
  readAccounts(accountIds: readonly string[]): Promise<ReadonlyMap<string, AccountRecord>>;

  /** ONE conditional put: taken when there is no lease of `scopeId` or it expired by `nowMs`. */
  takeLease(lease: BatchLease, nowMs: number): Promise<LeaseResult>;

  /** ONE conditional delete on the token; a lease taken over since (another's now) stays. */
  releaseLease(lease: BatchLease): Promise<void>;
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
