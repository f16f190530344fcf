/**
 * One definition per gap fact (docs/contract.md §18): the event types, the topic and its local
 * tap, the timing defaults and the list limits. The events consumer, the sweeper, the CDK
 * stacks, the local stack and the CLI import these.
 */

/** `type` of the re-fetch request the service publishes for overdue gaps. */
export const GAP_REFETCH_EVENT_TYPE = 'ledger.gap.refetch.v1';
/** `type` of a producer's declaration that numbers will never come (on `ledger-events`). */
export const GAP_WAIVED_EVENT_TYPE = 'ledger.gap.waived.v1';

/** The SNS topic of re-fetch requests (a deployment may prefix it with its stage). */
export const GAP_TOPIC_NAME = 'ledger-gaps';
/** The local stack's queue subscribed to the topic with raw delivery (tests, the README). */
export const GAP_TAP_QUEUE_NAME = 'ledger-gaps-tap';

/** Seconds a gap stays open before it is requested (`GAP_REFETCH_AFTER_SECONDS`). */
export const DEFAULT_GAP_REFETCH_AFTER_SECONDS = 300;
/**
 * What a deployment may set (CDK context `gapRefetchAfterSeconds`): no less than the sweeper's
 * one-minute schedule, which could not honour less, and no more than a day.
 */
export const MIN_GAP_REFETCH_AFTER_SECONDS = 60;
export const MAX_GAP_REFETCH_AFTER_SECONDS = 86_400;
/** The same, for `npm start`: a walkthrough should not wait five minutes. */
export const LOCAL_GAP_REFETCH_AFTER_SECONDS = 5;
/** A gap open longer than this many × GAP_REFETCH_AFTER_SECONDS is overdue (alarmed). */
export const GAP_OVERDUE_FACTOR = 12;

/**
 * An overdue gap already requested is counted again this long after the sweep that last
 * counted it (docs/contract.md §30): it leaves the head of the due index, and every 5-minute
 * alarm period still sees it (a 1-minute schedule counts it at most 240 s apart).
 */
export const GAP_OVERDUE_RECHECK_SECONDS = 180;

/** Numbers one re-fetch request names at most (the sequence item lists at most 1,000 gaps). */
export const MAX_REFETCH_NUMBERS = 1000;
/**
 * Ranges of missing numbers an event source keeps beyond its 1,000 listed gaps (§30); past
 * it the closest ranges merge (the numbers between them count as missing, never as arrived).
 */
export const MAX_GAP_RANGES = 1000;
/** Waived numbers an event source keeps (the last ones). */
export const MAX_WAIVED = 1000;
/** Numbers one waiver may name. */
export const MAX_WAIVER_NUMBERS = 1000;
/** Characters a waiver's reason may have. */
export const MAX_WAIVER_REASON = 500;

/** `kind` of a ledger-event source's sequence item: the sweeper's kind for its due gaps. */
export const EVENT_SOURCE_ITEM_KIND = 'event-source';
/** `kind` of a committed re-fetch request: due (for publishing) until it is marked published. */
export const GAP_REQUEST_ITEM_KIND = 'gap-request';
