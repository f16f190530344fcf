import type { IdempotencyRecord } from '../../../functions/domain/idempotency/model';
import type { IdempotencyClaim } from '../../../functions/domain/idempotency/port';

/** A request's claim as the hedged read gets it: its first answer `201 {"id":"e1"}`. */
export const requestClaim: IdempotencyClaim = {
  scopeId: 'scope',
  fingerprint: 'f1',
  nowSeconds: 1_000,
  expiresAt: 4_600,
  response: { statusCode: 201, body: '{"id":"e1"}' },
};

/** The record an attempt with token `writer` committed under that key (another body: 422). */
export const committedRecord = (
  writer = 'an-earlier-attempt',
  fingerprint = 'f1',
): IdempotencyRecord => ({
  fingerprint,
  statusCode: 201,
  body: '{"id":"e0"}',
  expiresAt: 4_000,
  writer,
});
