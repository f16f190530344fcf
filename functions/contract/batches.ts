/**
 * Facts of `POST /v1/batches` (docs/contract.md §25): the schema, the service, the CLI and the
 * bench read them from here.
 */

/** Operations one batch carries, at most. */
export const MAX_BATCH_OPERATIONS = 100;

/** Operations of one account an `independent` batch writes in one transaction, at most. */
export const MAX_COALESCED_OPERATIONS = 30;

export const BATCH_MODES = ['independent', 'atomic'] as const;
export type BatchMode = (typeof BATCH_MODES)[number];

/** What each operation is: the single route it stands for. */
export const BATCH_OPS = ['credit', 'debit', 'transfer', 'ledger_transaction'] as const;
export type BatchOp = (typeof BATCH_OPS)[number];

/**
 * The one deadline of a batch's writes (docs/contract.md §25): retries stop at it, and an
 * operation not started by then answers `503 unavailable` (retry it under its own key).
 */
export const BATCH_DEADLINE_MS = 10_000;

/**
 * How long an `independent` batch's lease outlives its deadline (docs/contract.md §25): an
 * operation started just before the deadline still makes its write (one DynamoDB call gives up
 * within MAX_DYNAMODB_CALL_MS, 9.5 s), then the batch records its answer. A holder that crashed
 * leaves a lease that a retry takes over after BATCH_DEADLINE_MS + this margin at most.
 */
export const BATCH_LEASE_MARGIN_MS = 10_000;
