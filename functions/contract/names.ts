/**
 * One definition per contract name (docs/contract.md §1, §6, §8): queue names, redrive
 * count, the outbox item kind and the application-id pattern. `functions/`, `lib/`, `local/`
 * and `cli/` import these; nothing else spells them.
 */

/** SQS queues of the contract; a deployment may prefix them with its stage. */
export const QUEUE_NAMES = {
  ledgerEvents: 'ledger-events',
  ledgerEventsDeadLetter: 'ledger-events-dlq',
  exportJobs: 'export-jobs',
  exportJobsDeadLetter: 'export-jobs-dlq',
  /** Accounts with pending credits (docs/contract.md §24): the folder's queue, fed by the dispatcher. */
  creditIntake: 'credit-intake',
  creditIntakeDeadLetter: 'credit-intake-dlq',
} as const;

/** Receives of one message before the redrive policy moves it to its DLQ. */
export const MAX_RECEIVE_COUNT = 5;

/** `kind` of account items; the journal projector's stream filter names it (docs/contract.md §15). */
export const ACCOUNT_ITEM_KIND = 'account';
/**
 * `kind` of an account's metadata item (docs/contract.md §34); the journal projector's stream
 * filter passes its changes to the search indexer.
 */
export const ACCOUNT_METADATA_ITEM_KIND = 'account-metadata';
/**
 * The account attribute holding the changes of its last update (docs/contract.md §15): what
 * the journal projector's stream filter requires and reads.
 */
export const ACCOUNT_CHANGES_ATTRIBUTE = 'lastChanges';

/** `kind` of the outbox items written by the task and rerun transactions. */
export const OUTBOX_ITEM_KIND = 'outbox';

/**
 * Stage names end up in stack names (`[A-Za-z][A-Za-z0-9-]*`) and in the journal events'
 * `source` (`urn:idempotent-ledger:<stage>`), so they stay short and plain.
 */
export const STAGE_PATTERN = /^[a-z][a-z0-9-]{0,19}$/;

/** Application ids name callback paths (`/v1/callbacks/{applicationId}`) and secret keys. */
export const APPLICATION_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
/** The same pattern as text, for the OpenAPI document and messages. */
export const APPLICATION_ID_PATTERN_SOURCE = APPLICATION_ID_PATTERN.source;

/** Signed callbacks arrive at `/v1/callbacks/{applicationId}` (docs/contract.md §7). */
export const CALLBACK_PATH_PREFIX = '/v1/callbacks/';
export const APPLICATION_OF_CALLBACK_PATH_MESSAGE = `must be ${CALLBACK_PATH_PREFIX}<applicationId>`;

/** The application a callback path names, or undefined when it is not such a path. */
export function applicationOfCallbackPath(path: string): string | undefined {
  if (!path.startsWith(CALLBACK_PATH_PREFIX)) return undefined;
  const applicationId = path.slice(CALLBACK_PATH_PREFIX.length);
  return APPLICATION_ID_PATTERN.test(applicationId) ? applicationId : undefined;
}

/** `kind` of hold items; the sweeper dispatches due items by kind (docs/contract.md §11). */
export const HOLD_ITEM_KIND = 'hold';
/** `kind` of execution items; the sweeper times them out past their deadline (§12). */
export const EXECUTION_ITEM_KIND = 'execution';
