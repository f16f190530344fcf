import type { Duration } from 'aws-cdk-lib';

/** The alarm descriptions of the journal, its gaps and its reconciliation (lib/alarm-catalog.ts). */

/** Shown on the journal projector's iterator-age alarm. */
export function journalBehindDescription(threshold: Duration): string {
  return [
    `The journal projector is at least ${threshold.toMinutes()} minutes behind the table stream: journals and`,
    'ledger.journal.v1 events are late (as-of balances answer 503 for recent instants). A record',
    'that keeps failing holds back its shard: Lambda retries it, in order, forever. The stream',
    'keeps records 24 hours; a projector behind by more LOSES records (journal-version-gap',
    'follows). First: the projector log group ("journal projection failed"), then throttling on',
    'the table and the journal topic.',
  ].join(' ');
}

/** Shown on the journal version-gap alarm. */
export const JOURNAL_VERSION_GAP_DESCRIPTION = [
  'The journal projector met an account update it cannot continue the journal with',
  '(JournalVersionGap): its head stands behind the update (a stream record was lost: the',
  'projector was more than 24 h behind, or the table was restored under the same stage), an',
  'account changed without a counted change, or an account item did not read as the builder',
  "writes it. That account's journal stops there and is never papered over. First: the",
  'projector log group ("journal version gap", "account changed without a journaled change",',
  '"journal change unreadable") names the account and the sequences; docs/alarms.md says when',
  'and how to restart its journal.',
].join(' ');

/** Shown on the journal-stuck alarm (docs/contract.md §30). */
export const JOURNAL_STUCK_DESCRIPTION = [
  'The reconciler found a journal that has trailed its account for longer than the projector',
  'retries (JournalVersionGapFindings, finding check journal_version_gap): a journal record is',
  'missing and will not come, so as-of balances of that account answer 503 and its journal',
  'events stop. Money was not changed. First: `npm run cli -- reconcile --findings --aws --table',
  '<TableName>` names the account and the missing sequence; the projector log group has the',
  '"journal version gap" line of the same account; docs/alarms.md says how to restart its journal.',
].join(' ');

/** Shown on the journal publish-failures alarm. */
export const DAY_SUMS_FAILURES_DESCRIPTION = [
  'The journal projector could not add day sums of effective time (EffectiveDaySumsFailure):',
  'DynamoDB throttled or refused the UpdateItem of EFFDAYS# items, or the role lost it. The',
  'stream retries from that update; the journal is written and published regardless, and',
  'statements read the month from the index meanwhile (slower, never wrong). First: the',
  'projector log group ("day sums not added") and its errorName.',
].join(' ');

export const JOURNAL_PUBLISH_FAILURES_DESCRIPTION = [
  'The journal topic refused ledger.journal.v1 events (JournalPublishFailure): SNS throttled or',
  'failed, or the projector lost its permission on the topic or its KMS key. The projector',
  'reports the stream record and Lambda retries it, so the events are late, not lost; journals',
  'are written regardless. First: the projector log group ("journal events not published"),',
  "the topic's NumberOfNotificationsFailed, and the key policy.",
].join(' ');

/** Shown on the journal projector's Errors alarm. */
export const JOURNAL_ERRORS_DESCRIPTION = [
  'The journal projector failed at least one whole invocation in 5 minutes (crash, timeout,',
  'out of memory). Lambda retries the stream batch from the same record, in order, so journal',
  'records and events are delayed, not lost; if it keeps failing, journal-projector-behind',
  'follows. First: run the runbook query on the projector log group.',
].join(' ');

/** Shown on the event-gaps-overdue alarm; `overdueSeconds` is GAP_REFETCH_AFTER_SECONDS × 12. */
export function eventGapsOverdueDescription(overdueSeconds: number): string {
  return [
    `A ledger-event sequence number has been missing for more than ${overdueSeconds} s`,
    '(OverdueGaps, counted by the sweeper): the service asked the producer for it',
    '(ledger.gap.refetch.v1 on the gap topic) and neither the event nor a ledger.gap.waived.v1',
    'came. Money may be missing from the account. First: GET /v1/accounts/{id}/event-sources',
    '(gapDetails names the numbers, refetchRequestedAt when they were asked for), the sweeper log',
    'group ("gap re-fetch requested"), then the producer: docs/operations.md "Gap re-fetch',
    'requests" says what it does with a request.',
  ].join(' ');
}
/** Shown on the reconciliation-mismatch alarm. */
export const RECONCILIATION_MISMATCH_DESCRIPTION = [
  "The reconciler recorded at least one finding (ReconciliationMismatches): an account's journal,",
  'entries, balance, holds or a transfer or ledger transaction disagree with each other. Money was',
  'not changed by the check. First: `npm run cli -- reconcile --findings --aws --table <TableName>`',
  'lists every finding with its account, check, sequence and expected/actual values; the',
  'reconciler log group has "reconciliation mismatch" lines. docs/alarms.md says what each check',
  'means and what to look at.',
].join(' ');

/** Shown on the journal-hash-chain alarm. */
export const JOURNAL_HASH_CHAIN_DESCRIPTION = [
  'The reconciler found a journal record whose hash does not link its content to the record',
  'before (JournalHashChainBreaks, docs/contract.md §27): a journal record was edited, removed or',
  'rewritten in the table outside the projector. Money was not changed by the check. First:',
  '`npm run cli -- verify --account <id> --aws --table <TableName>` for the account of the',
  '"reconciliation mismatch" line (check hash_chain) prints the first broken sequence; then find',
  'who wrote the item (CloudTrail data events).',
].join(' ');

/** Shown on the reconciler's Errors alarm. */
export const RECONCILER_ERRORS_DESCRIPTION = [
  'The reconciler failed a whole hourly run (crash, timeout, a storage error). Checkpoints keep',
  'what it finished and the next run resumes there, so checks are late, not skipped. First: the',
  'reconciler log group ("reconciliation run failed").',
].join(' ');
