/**
 * `metadata` on credits, debits, transfers, holds and ledger transactions (docs/contract.md
 * §16): caller-chosen string pairs, echoed wherever the movement is read and part of the
 * fingerprint. Journal records carry ids, never metadata.
 */
export type Metadata = Readonly<Record<string, string>>;

export const MAX_METADATA_KEYS = 20;
export const MAX_METADATA_VALUE_LENGTH = 500;
/**
 * 1–40 of `A-Z a-z 0-9 _ . -`. A key `__proto__` never reaches this pattern (validation drops
 * it): the edges refuse it first (`protoKeyPath`, functions/domain/shared/unicode.ts).
 */
export const METADATA_KEY_PATTERN = /^[A-Za-z0-9_.-]{1,40}$/;

/** `metadata` when given, else nothing: spread into what is stored and echoed. */
export const withMetadata = (metadata: Metadata | undefined) =>
  metadata === undefined ? {} : { metadata };

/** The same pairs (key order aside); two absent metadata are the same. */
export function sameMetadata(a: Metadata | undefined, b: Metadata | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}
