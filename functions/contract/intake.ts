/**
 * The folder's event source (docs/contract.md §24), one definition for lib/ and local/: messages
 * per batch (each names an account; a batch's messages of one account are one run of the
 * folder) and how long SQS gathers a batch before it invokes the folder.
 */
export const CREDIT_INTAKE_BATCH_SIZE = 10;
export const CREDIT_INTAKE_BATCHING_WINDOW_SECONDS = 1;
/**
 * Pending credits never strand (docs/contract.md §24, §36): the sweeper re-queues every deferred
 * account whose oldest pending credit was accepted longer ago than this
 * (`INTAKE_STRANDED_AFTER_SECONDS`, CDK context `intakeStrandedAfterSeconds`). The dispatcher
 * reads it too: an account's `INTAKE_DUE` marker falls due this long after its oldest credit.
 */
export const DEFAULT_INTAKE_STRANDED_AFTER_SECONDS = 60;
export const MIN_INTAKE_STRANDED_AFTER_SECONDS = 1;
export const MAX_INTAKE_STRANDED_AFTER_SECONDS = 86_400;
/** The same, for `npm start`: a folder failure heals within seconds, not minutes. */
export const LOCAL_INTAKE_STRANDED_AFTER_SECONDS = 10;
