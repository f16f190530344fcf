/**
 * Search by metadata, reference and payment id (docs/contract.md §34): the limits and names
 * the routes, the indexer, CDK, the local stack and the CLI share.
 */

/** Filters of one search (metadata pairs, reference, paymentId), ANDed. */
export const MAX_SEARCH_FILTERS = 5;
/** Items of one page. */
export const MAX_SEARCH_LIMIT = 100;
export const DEFAULT_SEARCH_LIMIT = 20;

/** The indexer's queue (the projector hands it changes) and its dead-letter queue. */
export const SEARCH_QUEUE_NAMES = {
  searchIndex: 'search-index',
  searchIndexDeadLetter: 'search-index-dlq',
} as const;

/** The query parameters of a metadata filter: `metadata.<key>=<value>`. */
export const METADATA_FILTER_PREFIX = 'metadata.';
