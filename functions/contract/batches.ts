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
 * What a batch keeps of its invocation for its answer and its lease's release (docs/contract.md
 * §36): its writes' one deadline is min(the function's remaining time − this, 29 s − elapsed);
 * an operation not started by then answers `503 unavailable` (retry it under its own key).
 */
export const BATCH_ANSWER_MARGIN_MS = 1_500;
