/**
 * Typed errors that carry their HTTP status and contract code (CONTRACT §3). Every failure a
 * caller may see is one of these; anything else is mapped to 500 `internal` by the problem
 * mapper, which never exposes the original message.
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
  | 'invalid_callback'
  | 'invalid_signature'
  | 'signature_expired';

export interface FieldError {
  readonly path: string;
  readonly message: string;
}

interface AppErrorOptions {
  readonly cause?: unknown;
  readonly errors?: readonly FieldError[];
  /** Seconds a client should wait before retrying (sent as `Retry-After`). */
  readonly retryAfterSeconds?: number;
}

export class AppError extends Error {
  readonly errors: readonly FieldError[] | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly title: string,
    detail: string,
    options: AppErrorOptions = {},
  ) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.errors = options.errors;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export class ValidationError extends AppError {
  constructor(detail: string, errors: readonly FieldError[] = [], cause?: unknown) {
    super(400, 'validation_failed', 'Validation failed', detail, { errors, cause });
  }
}

export class IdempotencyKeyMissingError extends AppError {
  constructor() {
    super(
      400,
      'idempotency_key_missing',
      'Idempotency-Key required',
      'This request needs an Idempotency-Key header.',
    );
  }
}

export class IdempotencyKeyInvalidError extends AppError {
  constructor(detail: string) {
    super(400, 'idempotency_key_invalid', 'Idempotency-Key invalid', detail);
  }
}

export class UnauthenticatedError extends AppError {
  constructor() {
    super(
      401,
      'unauthenticated',
      'Unauthenticated',
      'This request needs an authenticated principal.',
    );
  }
}

export class NotFoundError extends AppError {
  constructor(detail = 'The resource does not exist.') {
    super(404, 'not_found', 'Not found', detail);
  }
}

export class InsufficientFundsError extends AppError {
  constructor() {
    super(409, 'insufficient_funds', 'Insufficient funds', 'The debit is larger than the balance.');
  }
}

export class PaymentIdConflictError extends AppError {
  constructor() {
    super(
      409,
      'payment_id_conflict',
      'paymentId already used',
      'This paymentId was already used by another request on this account.',
    );
  }
}

export class IdempotencyKeyInUseError extends AppError {
  constructor(cause?: unknown) {
    super(
      409,
      'idempotency_key_in_use',
      'Idempotency-Key in use',
      'Another request with this Idempotency-Key is being processed; retry later.',
      { cause, retryAfterSeconds: 1 },
    );
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(limitBytes: number) {
    super(413, 'payload_too_large', 'Payload too large', `The body exceeds ${limitBytes} bytes.`);
  }
}

export class UnsupportedMediaTypeError extends AppError {
  constructor() {
    super(
      415,
      'unsupported_media_type',
      'Unsupported media type',
      'The body must be JSON (Content-Type: application/json).',
    );
  }
}

export class IdempotencyKeyReusedError extends AppError {
  constructor() {
    super(
      422,
      'idempotency_key_reused',
      'Idempotency-Key reused',
      'This Idempotency-Key was already used with a different request.',
    );
  }
}

export class CurrencyMismatchError extends AppError {
  constructor(accountCurrency: string, requested: string) {
    super(
      422,
      'currency_mismatch',
      'Currency mismatch',
      `The account holds ${accountCurrency}; the transaction is in ${requested}.`,
    );
  }
}

export class BalanceLimitExceededError extends AppError {
  constructor() {
    super(
      422,
      'balance_limit_exceeded',
      'Balance limit exceeded',
      'The credit would push the balance past 2^53 − 1 minor units.',
    );
  }
}

export class UnavailableError extends AppError {
  constructor(cause?: unknown) {
    super(503, 'unavailable', 'Service unavailable', 'Storage is unavailable; retry later.', {
      cause,
      retryAfterSeconds: 1,
    });
  }
}

export class InternalError extends AppError {
  constructor(cause?: unknown) {
    super(500, 'internal', 'Internal error', 'An unexpected error occurred.', { cause });
  }
}

export class TaskNotTerminalError extends AppError {
  constructor() {
    super(
      409,
      'task_not_terminal',
      'Task not terminal',
      'The current execution is still running; rerun once it has SUCCEEDED, FAILED, TIMED_OUT or CANCELED.',
    );
  }
}

export class InvalidCallbackError extends AppError {
  constructor(detail: string, errors: readonly FieldError[] = []) {
    super(400, 'invalid_callback', 'Invalid callback', detail, { errors });
  }
}

export class InvalidSignatureError extends AppError {
  constructor(detail = 'The Callback-Signature header is missing, malformed or does not match.') {
    super(401, 'invalid_signature', 'Invalid signature', detail);
  }
}

export class SignatureExpiredError extends AppError {
  constructor() {
    super(
      401,
      'signature_expired',
      'Signature expired',
      'The signature timestamp is more than 300 seconds away from now.',
    );
  }
}
