/**
 * Single-table key schema. Every item has string `pk`/`sk`; an account and its ledger entries
 * share a partition so one Query lists them newest first.
 */

/** TTL attribute (epoch seconds) on every record that expires; enabled on the table. */
export const TTL_ATTRIBUTE = 'expiresAt';

export type ItemKey = { pk: string; sk: string };

export const ENTRY_SK_PREFIX = 'ENTRY#';
export const SOURCE_SK_PREFIX = 'SOURCE#';

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
  /** Event-id dedup record; `scopeId` hashes (source, id) so any text is a safe key. */
  inbox: (scopeId: string): ItemKey => ({ pk: `INBOX#${scopeId}`, sk: 'INBOX' }),
  /** Sequence tracking of one event source for one account. */
  eventSource: (accountId: string, source: string): ItemKey => ({
    pk: `ACCOUNT#${accountId}`,
    sk: `${SOURCE_SK_PREFIX}${source}`,
  }),
} as const;
