import type { DomainError, ErrorCode } from '../shared/errors';
import type { IdempotencyRecord, StoredResponse } from './model';

/** How a command succeeded; the transport picks the status for each. */
export type SuccessOutcome = 'created' | 'accepted' | 'ok';

/**
 * Renders the response an idempotency record stores, before the write that commits it. Injected
 * by the transport (functions/api/problems.ts), so the domain treats the response as opaque.
 */
export interface ResponsePresenter {
  success(resource: unknown, outcome: SuccessOutcome): StoredResponse;
  rejection(error: DomainError): StoredResponse;
}

/** A request's key, known before its response can be rendered: scope, fingerprint, clock. */
export interface ClaimKey {
  readonly scopeId: string;
  readonly fingerprint: string;
  readonly nowSeconds: number;
}

/** What a first request claims: its scope, fingerprint and the response a replay returns. */
export interface IdempotencyClaim extends ClaimKey {
  /** Epoch seconds; the record counts as absent once `nowSeconds` passes it. */
  readonly expiresAt: number;
  readonly response: StoredResponse;
  /**
   * The attempt's writer token, stored on the claim: a hedged read that finds it has found the
   * request's own commit, not a replay (docs/contract.md §36; hedged-claims.ts).
   */
  readonly writer?: string;
}

export type RecordResult =
  | { readonly kind: 'recorded' }
  | { readonly kind: 'claimed'; readonly record: IdempotencyRecord };

/** Stores a rejection so that it replays; loses to a claim committed meanwhile. */
export interface ResponseRecorder {
  recordResponse(claim: IdempotencyClaim): Promise<RecordResult>;
  /**
   * The record stored under `key.scopeId` (strongly consistent), or undefined when there is none
   * or it expired before `key.nowSeconds`: how a refusal that is never recorded checks the key
   * first (docs/contract.md §4).
   */
  findRecord(key: ClaimKey): Promise<IdempotencyRecord | undefined>;
}

/** An inbox claim: a ledger event or callback seen once per (namespace, source, id). */
export interface InboxClaim {
  /** Keeps callback ids and ledger-event ids apart; absent for ledger events. */
  readonly namespace?: string;
  readonly source: string;
  readonly id: string;
  /** Compared with the stored record's hash when (source, id) was seen before. */
  readonly contentHash?: string;
  readonly nowSeconds: number;
  readonly expiresAt: number;
  /**
   * The SQS message id of a redriven dead letter (it carries `error_code`): a refusal recorded
   * under (source, id) is evaluated again once per redriven message (docs/contract.md §6, §31).
   */
  readonly redrive?: string;
}

/**
 * What the inbox says of an event it saw before, whatever the event is: applied (a duplicate),
 * other content (an id conflict), or refused for good (its recorded refusal, replayed like a
 * `409` under an HTTP key: docs/contract.md §6).
 */
export type SeenOutcome =
  | { readonly kind: 'duplicate' }
  | { readonly kind: 'id_conflict' }
  | { readonly kind: 'refused_before'; readonly refusal: RecordedRefusal };

/** A permanent refusal as the inbox keeps it: the domain code and detail of the first answer. */
export interface RecordedRefusal {
  readonly code: ErrorCode;
  readonly detail: string;
}
