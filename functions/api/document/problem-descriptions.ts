import type { ErrorCode } from '../../domain/shared/errors';

/**
 * When each code is answered, as docs/contract.md §3 words it (a test holds the two equal): its
 * problem type page (`/v1/problems/<code>`) and the document's examples show it. Apart from the
 * problem table (problems.ts) so the text stays out of the HTTP function's bundle: only the
 * document's generator imports it.
 */
export const PROBLEM_DESCRIPTIONS: Record<ErrorCode, string> = {
  validation_failed:
    'body, path, query or a header does not match the schema (unknown body fields included), or `Idempotency-Key` holds more than one value (§4)',
  idempotency_key_missing: 'a POST that needs `Idempotency-Key` has none',
  idempotency_key_invalid: 'the key is empty, longer than 255 characters, or not printable ASCII',
  invalid_callback: 'the callback envelope is invalid or names an unknown execution',
  unauthenticated: 'no principal',
  invalid_signature: 'callback signature header missing, malformed, or matching no active secret',
  signature_expired: 'callback timestamp more than 300 s away from now',
  not_found: 'unknown, or owned by someone else',
  insufficient_funds:
    "a debit, transfer, ledger leg, hold, reversal or export fee larger than the **available** balance plus the account's `overdraftLimit` (§11, §17), or an `overdraftLimit` lowered below what the account already draws (§24)",
  payment_id_conflict: 'the `paymentId` was already used by another request on this account',
  task_not_terminal: 'a rerun while the current execution is not terminal',
  task_not_succeeded: 'the result of a task whose current execution has not `SUCCEEDED` (§12)',
  rerun_limit_reached: 'a rerun after `MAX_RERUNS_PER_TASK` (default 20) reruns (§12)',
  idempotency_key_in_use:
    'the same key is still contended after retries, or a batch with the key is still running (§25); sends `Retry-After`',
  result_expired:
    'the export file is older than `EXPORT_RETENTION_DAYS` or gone from the bucket (§14)',
  payload_too_large: 'HTTP body over 64 KiB',
  unsupported_media_type: 'the body is not JSON',
  idempotency_key_reused: 'same (principal, operation, key) with a different request',
  currency_mismatch:
    "the request's currency differs from the account's; for a ledger transaction `detail` names the leg (§35)",
  balance_limit_exceeded: 'the credit would push the balance past 2^53 − 1 minor units',
  internal: 'anything unexpected',
  unavailable:
    "storage unavailable or throttled after retries, or the health check's read failed; sends `Retry-After`",
  hold_not_active: 'capture or void of a hold already captured or voided (§11)',
  hold_expired: 'capture or void of a hold at or after its `expiresAt`, swept or not (§11)',
  owner_mismatch:
    'not answered over HTTP today (a foreign account there is `404`); the code a `ledger.transfer.v1` event between two owners is dead-lettered with (§10)',
  account_closed: 'any effect on a closed account (§17)',
  account_not_empty: 'closing an account whose balance or available is not 0 (§17)',
  reversal_exceeds_original: 'reversals of one movement would add up to more than it moved (§16)',
  not_reversible:
    'reversing a reversal, a leg of a transfer or ledger transaction, or anything §16 does not list',
  period_closed:
    "a movement effective at or before the account's `closedThrough` (§26); judged in the write",
  period_already_closed:
    "a period close whose `through` is before the account's `closedThrough` (§26)",
  credit_pending:
    'reversing a credit still pending in a deferred account (§16, §24); **not recorded**: a retry once it is posted reverses it; sends `Retry-After`',
  pending_credits:
    'a period close while a deferred pending credit is effective at or before `through` (§24, §26)',
  legs_unbalanced:
    "a ledger transaction whose debits and credits differ in a currency (§16, §35): `detail` names the first such currency in leg order and its difference, `errors` lists each when the legs move several; **not recorded** (a 4xx of the request's shape, like 400)",
  monitor_limit_reached: 'an 11th balance monitor on one account: at most 10 (§28)',
  webhook_endpoint_limit_reached: "a principal's 21st webhook endpoint: at most 20 (§32)",
  batch_too_large:
    'an `atomic` batch whose items cannot fit in one transaction (at most 100); answered before anything is claimed, **not recorded** (§25)',
  batch_rejected:
    'an operation of an `atomic` batch failed: `failedOperation` is its index, `cause` its problem; nothing was applied (§25)',
};
