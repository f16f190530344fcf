import { DomainError, LedgerRejection } from '../shared/errors';

/**
 * An atomic batch whose items cannot fit in ONE transaction (docs/contract.md §25): answered
 * before anything is claimed, never recorded (a 4xx of the request's shape, like 400).
 */
export class BatchTooLargeError extends DomainError {
  constructor(items: number, limit: number) {
    super(
      'batch_too_large',
      `This atomic batch writes ${items} items; one transaction carries at most ${limit}. ` +
        'Split it, or send it as an independent batch.',
    );
  }
}

/**
 * An atomic batch refused as a whole (docs/contract.md §25): `failedOperation` is the index of
 * the first operation that failed and `response` what that operation alone would have been
 * answered (its problem). Nothing was written for any operation. Recorded under the batch's
 * own key only when that operation's refusal is itself a recorded one (a LedgerRejection).
 */
export class BatchRejectedError extends LedgerRejection {
  constructor(
    readonly failedOperation: number,
    /** The failing operation's answer as the single route renders it (opaque here). */
    readonly response: { readonly statusCode: number; readonly body: string },
  ) {
    super(
      'batch_rejected',
      `Operation ${failedOperation} failed, so no operation of this atomic batch was applied.`,
    );
  }
}
