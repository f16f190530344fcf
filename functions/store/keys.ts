/**
 * Single-table key schema. Every item has string `pk`/`sk`; an account and its ledger entries
 * share a partition so one Query lists them newest first.
 */

/** TTL attribute (epoch seconds) on every record that expires; enabled on the table. */
export const TTL_ATTRIBUTE = 'expiresAt';

export type ItemKey = { pk: string; sk: string };

export const ENTRY_SK_PREFIX = 'ENTRY#';

export const keys = {
  account: (accountId: string): ItemKey => ({ pk: `ACCOUNT#${accountId}`, sk: 'ACCOUNT' }),
  /** Sorted by creation time (ISO-8601 sorts as text), then id for same-millisecond entries. */
  entry: (accountId: string, createdAt: string, entryId: string): ItemKey => ({
    pk: `ACCOUNT#${accountId}`,
    sk: `${ENTRY_SK_PREFIX}${createdAt}#${entryId}`,
  }),
  idempotency: (scopeId: string): ItemKey => ({ pk: `IDEMPOTENCY#${scopeId}`, sk: 'IDEMPOTENCY' }),
  /** `paymentId` is unique per account and never expires (CONTRACT §4). */
  payment: (accountId: string, paymentId: string): ItemKey => ({
    pk: `PAYMENT#${accountId}#${paymentId}`,
    sk: 'PAYMENT',
  }),
} as const;
