/** The alarm descriptions of deferred credits (docs/contract.md §24), re-exported by lib/alarm-catalog.ts. */

/** Shown on the credit-intake-lag alarm; the threshold, `minutes` of `window` are its own. */
export function creditIntakeLagDescription(
  thresholdSeconds: number,
  minutes: number,
  window: number,
): string {
  return [
    `The oldest pending credit has waited more than ${thresholdSeconds} s, in ${minutes} of ${window}`,
    'minutes (CreditIntakeLagSeconds, max of the folder and of the sweep, which measures stranded',
    'accounts from their oldest acceptance even when the folder never runs): credits into deferred',
    'accounts are accepted but not',
    'posted, so their balances and available lag behind (the money is not lost: the entries read',
    'status pending). The folder is slow, throttled, failing or refusing. First: the folder log',
    'group (ledger-credit-intake) for "posting pending credits failed" and its errorCode,',
    'credit-intake-errors and credit-intake-dlq-not-empty, the credit-intake queue age; then',
    'table throttling on the account.',
  ].join(' ');
}

/** Shown on the credit-intake DLQ alarm. */
export const CREDIT_INTAKE_DLQ_ALARM_DESCRIPTION = [
  'credit-intake-dlq holds at least one message { accountId }: the folder failed to post that',
  "account's pending credits on 5 receives. They stay pending (nothing is lost or doubled): a",
  'folder that keeps failing on the account (a refusal that stays sets a credit aside instead,',
  'set-aside-credits). First: the folder log group for "posting pending credits failed"',
  'with that accountId and its errorCode; fix the cause, then move the messages back to',
  'credit-intake with an SQS redrive (StartMessageMoveTask): a folder posts whatever is',
  'pending, so a redrive never posts twice. Messages expire 14 days after their first enqueue.',
].join(' ');

/** Shown on the folder's Errors alarm. */
export const CREDIT_INTAKE_ERRORS_DESCRIPTION = [
  'The folder (credit-intake) failed at least one whole invocation in 5 minutes (a crash at cold',
  'start, its 30 s timeout, running out of memory), so the messages of that batch come back after',
  'the visibility timeout, and after 5 receives land in credit-intake-dlq. Accounts whose posting',
  'failed inside a run are not counted here (they are batch item failures). Pending credits wait,',
  'they are not lost. First: run the runbook query on the folder log group and compare with the',
  'last deployment.',
].join(' ');

/** Shown on the credit-intake queue-age alarm; `thresholdSeconds` and `minutes` are its own. */
export function creditIntakeQueueAgeDescription(thresholdSeconds: number, minutes: number): string {
  return [
    `The oldest message on credit-intake has waited more than ${thresholdSeconds} s, for ${minutes}`,
    'minutes (ApproximateAgeOfOldestMessage): the folder is not keeping up or not running (throttled,',
    'failing at cold start, its event source disabled), so pending credits are not posted. First: the',
    'folder log group and credit-intake-errors, its concurrency and throttles; the sweep keeps',
    'queueing stranded accounts, so the age falls once the folder runs again (docs/operations.md',
    '"Stranded pending credits").',
  ].join(' ');
}

/** Shown on the set-aside-credits alarm. */
export const SET_ASIDE_CREDITS_DESCRIPTION = [
  'The folder set aside at least one pending credit in 5 minutes (SetAsideCredits): it can never',
  'post it, as it is effective in a closed period or would push the balance past 2^53 - 1. The',
  "money stays accepted and unposted (nothing is dropped); the account's later credits post. Each",
  'is a reconciler finding (set_aside_credit). First: npm run cli -- reconcile --findings, or',
  'GET /v1/accounts/{accountId}/pending-credits (status set_aside, reason); decide with the owner,',
  'then npm run cli -- intake resolve --account A --credit C --effective-at T (docs/operations.md',
  '"Set-aside credits").',
].join(' ');
