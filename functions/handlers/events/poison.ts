import type { ErrorCode } from '../../domain/shared/errors';

/** Permanent failures go to the DLQ at once with one of these `error_code`s (docs/contract.md §6). */
export const POISON_CODES = [
  'invalid_json',
  'schema_invalid',
  'validation_failed',
  'unknown_account',
  'currency_mismatch',
  'insufficient_funds',
  'payment_id_conflict',
  'owner_mismatch',
  'id_conflict',
  'balance_limit_exceeded',
  'account_closed',
  'period_closed',
] as const;
export type PoisonCode = (typeof POISON_CODES)[number];

/**
 * The one table from a domain code to a dead-letter reason: an event rejected with one of these
 * can never apply. Every other code (unavailable, internal, …) is transient: the message is
 * reported as a batch item failure and redelivered.
 */
export const POISON_REASONS: Partial<Record<ErrorCode, PoisonCode>> = {
  not_found: 'unknown_account',
  currency_mismatch: 'currency_mismatch',
  insufficient_funds: 'insufficient_funds',
  payment_id_conflict: 'payment_id_conflict',
  owner_mismatch: 'owner_mismatch',
  balance_limit_exceeded: 'balance_limit_exceeded',
  account_closed: 'account_closed',
  // effectiveAt too far ahead or behind (docs/contract.md §26): it never becomes valid.
  validation_failed: 'validation_failed',
  period_closed: 'period_closed',
};
