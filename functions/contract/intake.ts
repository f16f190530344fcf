/**
 * The folder's event source (docs/contract.md §24), one definition for lib/ and local/: messages
 * per batch (each names an account; a batch's messages of one account are one run of the
 * folder) and how long SQS gathers a batch before it invokes the folder.
 */
export const CREDIT_INTAKE_BATCH_SIZE = 10;
export const CREDIT_INTAKE_BATCHING_WINDOW_SECONDS = 1;
