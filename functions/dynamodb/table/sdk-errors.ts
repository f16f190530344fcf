import { InternalError, UnavailableError } from '../../domain/shared/errors';

/** Errors that mean "storage did not answer in time or refused for load": retry later. */
const UNAVAILABLE_NAMES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TransactionInProgressException',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
]);

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN']);

function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (UNAVAILABLE_NAMES.has(error.name)) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
  return (error as { $fault?: unknown }).$fault === 'server';
}

/**
 * True when DynamoDB refused a request as invalid (anywhere in the cause chain). For an event that
 * passed validation this is our bug, not the producer's (docs/contract.md §6).
 */
export function isStorageValidation(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e.name === 'ValidationException') return true;
  }
  return false;
}

/** Maps an SDK failure to a typed error; the SDK message stays in `cause`, never in a response. */
export function storageError(error: unknown): Error {
  return isUnavailable(error) ? new UnavailableError(error) : new InternalError(error);
}
