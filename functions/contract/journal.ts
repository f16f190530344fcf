/**
 * One definition per journal fact (docs/contract.md §15): the outbound event's type and source,
 * how sequences are written, the topic and its local tap queue, the page limits. The projector,
 * the routes, the CDK stacks, the local stack and the CLI import these.
 */

/** `type` of every outbound journal CloudEvent. */
export const JOURNAL_EVENT_TYPE = 'ledger.journal.v1';

/** `source` of the events of a deployment: its stage names it (a restore deploys a new one). */
export const journalEventSource = (stage: string): string => `urn:idempotent-ledger:${stage}`;

/** The stage the local stack publishes as. */
export const LOCAL_STAGE = 'local';

/**
 * The CloudEvents `sequence` attribute: zero-padded to 16 digits, since the sequence extension
 * orders lexicographically (2^53 has 16 digits).
 */
export const SEQUENCE_DIGITS = 16;
export const padSequence = (sequence: number): string =>
  String(sequence).padStart(SEQUENCE_DIGITS, '0');

/** `id` of a record's event: `<accountId>:<padded sequence>`, unique per deployment. */
export const journalEventId = (accountId: string, sequence: number): string =>
  `${accountId}:${padSequence(sequence)}`;

/** The SNS topic of the journal events (a deployment may prefix it with its stage). */
export const JOURNAL_TOPIC_NAME = 'ledger-journal';
/** The local stack's queue subscribed to the topic with raw delivery (tests and the CLI read it). */
export const JOURNAL_TAP_QUEUE_NAME = 'ledger-journal-tap';

/** `GET …/journal`: records per page by default and at most. */
export const DEFAULT_JOURNAL_PAGE = 100;
export const MAX_JOURNAL_PAGE = 1000;

/** Seconds a caller waits before asking again while the journal trails `version`. */
export const JOURNAL_BEHIND_RETRY_SECONDS = 1;

/**
 * How long the journal projector may still write an account's records after its change: the
 * stream keeps a record 24 h and the projector retries without limit until then. A journal
 * still behind `version` after this is a reconciler finding `journal_version_gap` (§30).
 */
export const JOURNAL_RETRY_WINDOW_SECONDS = 24 * 3600;
