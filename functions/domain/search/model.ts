import { METADATA_KEY_PATTERN, type Metadata } from '../accounts/metadata';
import type { LedgerEntry } from '../accounts/model';

/**
 * Search (docs/contract.md §34): one index item per (owner, kind, field, value) and object,
 * where a field is `metadata.<key>`, `reference` or `paymentId`; every index item carries all
 * of its object's pairs, so a search queries the rarest filter and filters the others there.
 */
export type SearchKind = 'account' | 'entry';

export interface Pair {
  /** `metadata.<key>`, `reference`, `paymentId`, or `*` (every account of the owner). */
  readonly field: string;
  readonly value: string;
}

/** The pair every account is indexed under: the listing of an owner's accounts. */
export const EVERY_ACCOUNT: Pair = { field: '*', value: '*' };

export const metadataPairs = (metadata: Metadata | undefined): Pair[] =>
  Object.entries(metadata ?? {}).map(([key, value]) => ({ field: `metadata.${key}`, value }));

/**
 * What an entry is found by: its metadata, reference and paymentId; a reversal by its
 * reference only (§36). Holds are no entries; a capture carries its hold's metadata.
 */
export function entryPairs(entry: LedgerEntry): Pair[] {
  const reference =
    entry.reference === undefined ? [] : [{ field: 'reference', value: entry.reference }];
  if (entry.type === 'reversal') return reference;
  const payment =
    entry.paymentId === undefined ? [] : [{ field: 'paymentId', value: entry.paymentId }];
  return [...metadataPairs(entry.metadata), ...reference, ...payment];
}

/** What an account is found by: its metadata, and the owner's listing of every account. */
export const accountPairs = (metadata: Metadata | undefined): Pair[] => [
  EVERY_ACCOUNT,
  ...metadataPairs(metadata),
];

/** One object as the index holds it. */
export interface IndexedObject {
  readonly kind: SearchKind;
  readonly id: string;
  readonly ownerId: string;
  /** Newest first: the account's or the entry's `createdAt`. */
  readonly sortAt: string;
  /** An entry's account (a search may ask for one account only). */
  readonly accountId?: string;
  /** An account's name, lower-cased: `name` is a case-insensitive prefix (§36). */
  readonly name?: string;
  readonly pairs: readonly Pair[];
}

export const pairId = (pair: Pair): string => `${pair.field}\u0000${pair.value}`;

/** What indexing `next` over what was indexed before changes: counts move for add/remove. */
export interface IndexPlan {
  readonly put: readonly Pair[];
  readonly added: readonly Pair[];
  readonly removed: readonly Pair[];
}

/**
 * The writes that take the index from `previous` (the object's record of indexed pairs) to
 * `next`: every pair of `next` is put (its copied pairs may have changed), counts move only
 * for pairs added or removed. Undefined: nothing to write (indexed exactly so already).
 */
export function planIndex(
  previous: IndexedObject | undefined,
  next: IndexedObject,
): IndexPlan | undefined {
  const before = new Set((previous?.pairs ?? []).map(pairId));
  const after = new Set(next.pairs.map(pairId));
  const added = next.pairs.filter((pair) => !before.has(pairId(pair)));
  const removed = (previous?.pairs ?? []).filter((pair) => !after.has(pairId(pair)));
  const same =
    previous !== undefined &&
    added.length === 0 &&
    removed.length === 0 &&
    previous.sortAt === next.sortAt &&
    previous.name === next.name;
  if (same || (previous === undefined && next.pairs.length === 0)) return undefined;
  return { put: next.pairs, added, removed };
}

/** A search's filters, parsed from the query (at most MAX_SEARCH_FILTERS). */
export interface SearchFilters {
  readonly pairs: readonly Pair[];
  /** Accounts only: a case-insensitive prefix of the name. */
  readonly name?: string;
  /** Transactions only: entries of this account (the caller's). */
  readonly accountId?: string;
}

export const isMetadataKey = (key: string): boolean => METADATA_KEY_PATTERN.test(key);
