import type { DomainError } from '../shared/errors';
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

/** What a first request claims: its scope, fingerprint and the response a replay returns. */
export interface IdempotencyClaim {
  readonly scopeId: string;
  readonly fingerprint: string;
  /** Epoch seconds; the record counts as absent once `nowSeconds` passes it. */
  readonly expiresAt: number;
  readonly nowSeconds: number;
  readonly response: StoredResponse;
}

export type RecordResult =
  | { readonly kind: 'recorded' }
  | { readonly kind: 'claimed'; readonly record: IdempotencyRecord };

/** Stores a rejection so that it replays; loses to a claim committed meanwhile. */
export interface ResponseRecorder {
  recordResponse(claim: IdempotencyClaim): Promise<RecordResult>;
}
