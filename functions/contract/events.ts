/**
 * Facts of the `ledger-events` consumer and of the DynamoDB limits its batched writes live
 * within (docs/contract.md §6, §20). lib/ sizes the event source from them, local/ runs its
 * poller by them, the consumer splits its transactions by them.
 */

/** Records per invocation by default (the SQS maximum without a batching window). */
export const DEFAULT_EVENTS_BATCH_SIZE = 10;
/** The largest `eventsBatchSize`: records of one account in a batch commit together. */
export const MAX_EVENTS_BATCH_SIZE = 100;
/** Concurrent invocations the event source may start by default (its maximum concurrency). */
export const DEFAULT_EVENTS_MAX_CONCURRENCY = 5;
/** The consumer's function timeout; its retries end before it (docs/contract.md §20). */
export const EVENTS_CONSUMER_TIMEOUT_SECONDS = 30;

/** DynamoDB: at most 100 items in one TransactWriteItems. */
export const MAX_TRANSACTION_ITEMS = 100;
/** DynamoDB: at most 4 MB in one TransactWriteItems. */
export const MAX_TRANSACTION_BYTES = 4 * 1024 * 1024;
/** DynamoDB: write units one partition serves per second. */
export const PARTITION_WRITE_UNITS_PER_SECOND = 1_000;

/**
 * The message attributes of a dead letter (docs/contract.md §6): why (`error_code`, a poison
 * code or `receives_exhausted`), in words (`error_detail`), and the message it was.
 */
export const DEAD_LETTER_ATTRIBUTES = {
  code: 'error_code',
  detail: 'error_detail',
  sourceMessageId: 'source_message_id',
} as const;

/**
 * The `error_code` of an event that failed transiently on each of its `MAX_RECEIVE_COUNT`
 * receives (§6): not poison; it may apply once redriven.
 */
export const RECEIVES_EXHAUSTED = 'receives_exhausted';
