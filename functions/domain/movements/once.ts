import type { PaidExport } from '../exports/port';
import type { SequenceWrite } from '../gaps/port';
import type { IdempotencyRecord } from '../idempotency/model';
import type { IdempotencyClaim, InboxClaim, RecordedRefusal } from '../idempotency/port';
import { type DomainError, InternalError } from '../shared/errors';

/**
 * How a movement is claimed "once" (docs/contract.md §23). The transport decides; the movement
 * never looks inside. Whatever the kind, its claim item commits in the movement's own
 * TransactWriteItems (`dynamodb/movements/once.ts` writes and reads it back). A new transport
 * (a batch operation's claim, §25) is a new kind here and there, and nothing in the movements.
 */
export type Once =
  /**
   * An HTTP request (§4): (principal, operation, key) + fingerprint, the first response stored;
   * a batch operation's carries its index in the batch, which orders its entries (§36).
   */
  | {
      readonly kind: 'request';
      readonly claim: IdempotencyClaim;
      readonly operationIndex?: number;
    }
  /** A ledger event (§6): (source, id) + content hash, and its sequence item when numbered. */
  | { readonly kind: 'inbox'; readonly claim: InboxClaim; readonly sequence?: SequenceWrite }
  /** An export's request (§5): its request claim and the export its fee pays for. */
  | { readonly kind: 'export'; readonly claim: IdempotencyClaim; readonly paysFor: PaidExport };

export const requestOnce = (claim: IdempotencyClaim, operationIndex?: number): Once =>
  operationIndex === undefined
    ? { kind: 'request', claim }
    : { kind: 'request', claim, operationIndex };

/** The index in its request of the operation a movement is (§36): 0 but in a batch. */
export const operationIndexOf = (once: Once): number =>
  (once.kind === 'request' ? once.operationIndex : undefined) ?? 0;

export const exportOnce = (claim: IdempotencyClaim, paysFor: PaidExport): Once => ({
  kind: 'export',
  claim,
  paysFor,
});

export const inboxOnce = (claim: InboxClaim, sequence: SequenceWrite | undefined): Once =>
  sequence === undefined ? { kind: 'inbox', claim } : { kind: 'inbox', claim, sequence };

/** What the claim says when it committed, or when it is what cancelled the write. */
export type OnceAnswer =
  | { readonly kind: 'committed' }
  /** A request claim seen before: its stored record (a replay, or a reused key). */
  | { readonly kind: 'claimed'; readonly record: IdempotencyRecord }
  /** An inbox claim seen before with the same content. */
  | { readonly kind: 'duplicate' }
  /** An inbox claim seen before with other content; nothing changed. */
  | { readonly kind: 'id_conflict' }
  /** An inbox claim that holds a permanent refusal: replayed, nothing changed. */
  | { readonly kind: 'refused_before'; readonly refusal: RecordedRefusal }
  /** The sequence item moved since it was read: read again and retry. */
  | { readonly kind: 'sequence_moved' };

/** A store method's answer: the claim's, or the movement's own refusal (its kind's facts). */
export type MovementWrite<Rejection> = OnceAnswer | Rejection;

/** A movement command's answer: the claim's, or the refusal explained as a DomainError. */
export type MovementResult =
  | OnceAnswer
  | { readonly kind: 'rejected'; readonly error: DomainError };

const ONCE_ANSWERS: ReadonlySet<string> = new Set<OnceAnswer['kind']>([
  'committed',
  'claimed',
  'duplicate',
  'id_conflict',
  'refused_before',
  'sequence_moved',
]);

export function isOnceAnswer<R extends { readonly kind: string }>(
  result: OnceAnswer | R,
): result is OnceAnswer {
  return ONCE_ANSWERS.has(result.kind);
}

/**
 * An account of another owner is `not_found` to a caller, who must not learn it exists, and
 * `owner_mismatch` to a producer, whose owner is the subject account's (docs/contract.md §10, §16).
 */
export function foreignOwnerOf(once: Once): 'not_found' | 'owner_mismatch' {
  switch (once.kind) {
    case 'request':
    case 'export':
      return 'not_found';
    case 'inbox':
      return 'owner_mismatch';
  }
}

/**
 * The DomainError a request transport records for a refused movement; an inbox answer cannot
 * reach a request claim.
 */
export function requestRefusal(result: MovementResult): DomainError {
  if (result.kind === 'rejected') return result.error;
  return new InternalError(new Error(`a request claim answered ${result.kind}`));
}
