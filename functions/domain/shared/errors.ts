/**
 * Domain errors: a stable `code`, a human `detail` and the `cause` (docs/contract.md §3). They
 * know nothing of transports: `functions/api/problems.ts` maps each code to an HTTP status and
 * title, `functions/handlers/events/poison.ts` to a dead-letter reason. Anything that is not a
 * DomainError is an unexpected failure (`internal` over HTTP, a redelivered message).
 */
export type ErrorCode =
  | 'validation_failed'
  | 'idempotency_key_missing'
  | 'idempotency_key_invalid'
  | 'unauthenticated'
  | 'not_found'
  | 'insufficient_funds'
  | 'payment_id_conflict'
  | 'idempotency_key_in_use'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'idempotency_key_reused'
  | 'currency_mismatch'
  | 'balance_limit_exceeded'
  | 'internal'
  | 'unavailable'
  | 'task_not_terminal'
  | 'task_not_succeeded'
  | 'rerun_limit_reached'
  | 'result_expired'
  | 'invalid_callback'
  | 'invalid_signature'
  | 'signature_expired'
  | 'hold_not_active'
  | 'hold_expired'
  | 'owner_mismatch'
  | 'account_closed'
  | 'account_not_empty'
  | 'reversal_exceeds_original'
  | 'not_reversible'
  | 'credit_pending'
  | 'legs_unbalanced'
  | 'monitor_limit_reached'
  | 'batch_too_large'
  | 'batch_rejected'
  | 'period_closed'
  | 'period_already_closed'
  | 'pending_credits'
  | 'webhook_endpoint_limit_reached';

export interface FieldError {
  readonly path: string;
  readonly message: string;
}

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    cause?: unknown,
  ) {
    super(detail, cause === undefined ? undefined : { cause });
    this.name = new.target.name;
  }
}

/**
 * A decision on stored ledger state (funds, currency, paymentId, task status). It reached the
 * ledger, so an idempotent command records it and replays it (docs/contract.md §4); every other
 * DomainError is answered without a record, so a corrected retry with the same key proceeds.
 */
export class LedgerRejection extends DomainError {}

/** Input that failed its schema; the failing fields travel as data. */
export class InvalidInputError extends DomainError {
  constructor(
    code: 'validation_failed' | 'invalid_callback',
    detail: string,
    readonly errors: readonly FieldError[] = [],
    cause?: unknown,
  ) {
    super(code, detail, cause);
  }
}

export class ValidationError extends InvalidInputError {
  constructor(detail: string, errors: readonly FieldError[] = [], cause?: unknown) {
    super('validation_failed', detail, errors, cause);
  }
}

/**
 * A refused `effectiveAt` (docs/contract.md §26): judged against the clock, so on a request's
 * first attempt only — a retry under a stored key replays before it (§31,
 * `IdempotentCommands.planned`; an event's inbox likewise).
 */
export class EffectiveTimeRefused extends ValidationError {}

export class InvalidCallbackError extends InvalidInputError {
  constructor(detail: string, errors: readonly FieldError[] = []) {
    super('invalid_callback', detail, errors);
  }
}

export class IdempotencyKeyMissingError extends DomainError {
  constructor() {
    super('idempotency_key_missing', 'This request needs an Idempotency-Key header.');
  }
}

export class IdempotencyKeyInvalidError extends DomainError {
  constructor(detail: string) {
    super('idempotency_key_invalid', detail);
  }
}

export class IdempotencyKeyReusedError extends DomainError {
  constructor() {
    super(
      'idempotency_key_reused',
      'This Idempotency-Key was already used with a different request.',
    );
  }
}

export class IdempotencyKeyInUseError extends DomainError {
  constructor(
    cause?: unknown,
    /** When the key is known to be free again, in seconds (a batch's lease, §31). */
    readonly retryAfterSeconds?: number,
  ) {
    super(
      'idempotency_key_in_use',
      'Another request with this Idempotency-Key is being processed; retry later.',
      cause,
    );
  }
}

export class UnauthenticatedError extends DomainError {
  constructor(detail = 'This request needs an authenticated principal.') {
    super('unauthenticated', detail);
  }
}

export class NotFoundError extends DomainError {
  constructor(detail = 'The resource does not exist.') {
    super('not_found', detail);
  }
}

export class PayloadTooLargeError extends DomainError {
  constructor(limitBytes: number) {
    super('payload_too_large', `The body exceeds ${limitBytes} bytes.`);
  }
}

export class UnsupportedMediaTypeError extends DomainError {
  constructor() {
    super('unsupported_media_type', 'The body must be JSON (Content-Type: application/json).');
  }
}

/**
 * More than the account may draw on: `available` plus its `overdraftLimit` (docs/contract.md
 * §11, §17). A ledger transaction names the first short account (§16).
 */
export class InsufficientFundsError extends LedgerRejection {
  constructor(accountId?: string) {
    super(
      'insufficient_funds',
      accountId === undefined
        ? 'The amount is larger than the available balance.'
        : `Account ${accountId} cannot cover its leg: the amount is larger than its available balance plus its overdraft limit.`,
    );
  }
}

export class PaymentIdConflictError extends LedgerRejection {
  constructor() {
    super(
      'payment_id_conflict',
      'This paymentId was already used by another request on this account.',
    );
  }
}

export class CurrencyMismatchError extends LedgerRejection {
  constructor(accountCurrency: string, requested: string) {
    super(
      'currency_mismatch',
      `The account holds ${accountCurrency}; the transaction is in ${requested}.`,
    );
  }
}

/** A credit that would push a balance past 2^53 − 1 minor units (docs/contract.md §5). */
export class BalanceLimitExceededError extends LedgerRejection {
  constructor() {
    super('balance_limit_exceeded', 'The credit would push the balance past 2^53 − 1 minor units.');
  }
}

export class TaskNotTerminalError extends LedgerRejection {
  constructor() {
    super(
      'task_not_terminal',
      'The current execution is still running; rerun once it has SUCCEEDED, FAILED, TIMED_OUT or CANCELED.',
    );
  }
}

/** A task's reruns reached MAX_RERUNS_PER_TASK (docs/contract.md §12); recorded and replayed. */
export class RerunLimitReachedError extends LedgerRejection {
  constructor(limit: number) {
    super(
      'rerun_limit_reached',
      `This task has been rerun ${limit} times, the most it accepts; create a new export.`,
    );
  }
}

/** The result of a task whose current execution has not SUCCEEDED (docs/contract.md §12). */
export class TaskNotSucceededError extends DomainError {
  constructor() {
    super(
      'task_not_succeeded',
      'The current execution has not SUCCEEDED; there is no result to download.',
    );
  }
}

/** The export object is past EXPORT_RETENTION_DAYS or gone from the bucket (docs/contract.md §14). */
export class ResultExpiredError extends DomainError {
  constructor(retentionDays: number) {
    super(
      'result_expired',
      `Export files are kept ${retentionDays} days; this one is gone. Rerun the task for a new one.`,
    );
  }
}

export class HoldNotActiveError extends LedgerRejection {
  constructor() {
    super('hold_not_active', 'The hold is already captured or voided.');
  }
}

export class HoldExpiredError extends LedgerRejection {
  constructor() {
    super('hold_expired', 'The hold expired; its amount is available again.');
  }
}

/**
 * A ledger event moving money between accounts of two different owners (docs/contract.md §10).
 * Never reaches HTTP, where both accounts are the caller's or the answer is not_found.
 */
export class OwnerMismatchError extends LedgerRejection {
  constructor() {
    super('owner_mismatch', 'The two accounts of the transfer belong to different owners.');
  }
}

/** Any effect on a closed account (docs/contract.md §17). */
export class AccountClosedError extends LedgerRejection {
  constructor(accountId?: string) {
    super('account_closed', `${accountId ? `Account ${accountId}` : 'The account'} is closed.`);
  }
}

/** Closing an account whose balance or available is not 0 (docs/contract.md §17). */
export class AccountNotEmptyError extends LedgerRejection {
  constructor() {
    super('account_not_empty', 'Only an account whose balance and available are both 0 closes.');
  }
}

export class InvalidSignatureError extends DomainError {
  constructor(detail = 'The Callback-Signature header is missing, malformed or does not match.') {
    super('invalid_signature', detail);
  }
}

export class SignatureExpiredError extends DomainError {
  constructor(toleranceSeconds: number) {
    super(
      'signature_expired',
      `The signature timestamp is more than ${toleranceSeconds} seconds away from now.`,
    );
  }
}

export class UnavailableError extends DomainError {
  constructor(cause?: unknown, detail = 'Storage is unavailable; retry later.') {
    super('unavailable', detail, cause);
  }
}

export class InternalError extends DomainError {
  constructor(cause?: unknown) {
    super('internal', 'An unexpected error occurred.', cause);
  }
}
