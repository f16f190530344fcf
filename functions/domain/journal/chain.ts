import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { JournalRecord } from './model';

/**
 * The journal's hash chain (docs/contract.md §27): every record carries `hash` = hex SHA-256 over
 * the previous record's `hash` (64 zeros at a chain's start) followed by the record without
 * `hash` in RFC 8785 canonical JSON (the `canonicalize` package, never a hand-written one).
 * The whole record is hashed, every field but `hash`, whatever it holds: a field added later
 * (`effectiveAt`, …) is covered without a change here.
 */

/** What the first record of a chain links to. */
export const CHAIN_GENESIS = '0'.repeat(64);

/** The record as hashed: every field but `hash`. */
export function hashedContent(record: object): string {
  const { hash: _hash, ...content } = record as { readonly hash?: unknown };
  const text = canonicalize(content);
  if (text === undefined) throw new Error('a journal record has no JSON form');
  return text;
}

/** hex SHA-256(previous ‖ canonical JSON of the record without `hash`), UTF-8. */
export function chainHash(previous: string, record: object): string {
  return createHash('sha256')
    .update(previous, 'utf8')
    .update(hashedContent(record), 'utf8')
    .digest('hex');
}

/**
 * Where a chain continues from: the hash of the journal's last record, or none — no record yet,
 * or a journal written before the chain existed (its next record starts the chain).
 */
export interface ChainLink {
  readonly hash?: string;
}

/**
 * Records hashed in order after `previous`: the first one starts the chain (`chainStart: true`,
 * linked to {@link CHAIN_GENESIS}) when there is nothing hashed before it.
 */
export function chain(
  records: readonly JournalRecord[],
  previous: ChainLink | undefined,
): JournalRecord[] {
  let link = previous?.hash;
  return records.map((record) => {
    const { hash: _old, chainStart: _start, ...unhashed } = record;
    const content: JournalRecord =
      link === undefined ? { ...unhashed, chainStart: true } : { ...unhashed };
    const hash = chainHash(link ?? CHAIN_GENESIS, content);
    link = hash;
    return { ...content, hash };
  });
}

/** Where a check of a chain stands: the last record checked (absent: before record 1). */
export interface ChainPoint {
  readonly sequence: number;
  readonly balanceAfter: number;
  readonly availableAfter: number;
  /** Its hash; absent for a record written before the chain. */
  readonly hash?: string;
}

/** The first record that does not hold, and why. */
export interface ChainBreak {
  readonly sequence: number;
  readonly problem: 'sequence' | 'arithmetic' | 'hash';
  readonly detail: string;
  /** A hash break: the hash the record's content links to, and the one it carries. */
  readonly expected?: string;
  readonly actual?: string;
}

/** The links of one record to the point before it: what is wrong with it, if anything. */
export function linkProblem(
  record: JournalRecord,
  before: ChainPoint | undefined,
): ChainBreak | undefined {
  const at = before?.sequence ?? 0;
  const sequence = record.sequence;
  if (sequence !== at + 1) {
    return { sequence: at + 1, problem: 'sequence', detail: `record ${at + 1} is missing` };
  }
  if (!(sequence === 1 && record.opening)) {
    const balance = (before?.balanceAfter ?? 0) + record.balanceDelta;
    const available = (before?.availableAfter ?? 0) + record.availableDelta;
    if (record.balanceAfter !== balance || record.availableAfter !== available) {
      return {
        sequence,
        problem: 'arithmetic',
        detail: `balance/available after is ${record.balanceAfter}/${record.availableAfter}, the one before plus the deltas ${balance}/${available}`,
      };
    }
  }
  return hashProblem(record, before?.hash);
}

function hashProblem(record: JournalRecord, previous: string | undefined): ChainBreak | undefined {
  const broken = (detail: string, expected = 'a hash linked to the record before'): ChainBreak => ({
    sequence: record.sequence,
    problem: 'hash',
    detail,
    expected,
    actual: record.hash ?? 'none',
  });
  if (record.hash === undefined) {
    // Before the chain: nothing to check. After it started, a record without a hash is cut out.
    return previous === undefined ? undefined : broken('the record has no hash inside the chain');
  }
  if (record.chainStart && previous !== undefined) {
    return broken('the chain starts again after a hashed record');
  }
  if (!record.chainStart && previous === undefined) {
    return broken('a hashed record follows no hash and does not start the chain');
  }
  const expected = chainHash(previous ?? CHAIN_GENESIS, record);
  return expected === record.hash
    ? undefined
    : broken(`its hash is ${record.hash}, its content hashes to ${expected}`, expected);
}

/** The point a checked record leaves the check at. */
export const pointOf = (record: JournalRecord): ChainPoint => ({
  sequence: record.sequence,
  balanceAfter: record.balanceAfter,
  availableAfter: record.availableAfter,
  ...(record.hash === undefined ? {} : { hash: record.hash }),
});

/**
 * Checks records in order from `from`: contiguous, `balanceAfter`/`availableAfter` the previous
 * ones plus the deltas, each hash its content linked to the previous record's stored hash (so
 * one edited record breaks at its own sequence only). Every break, in order.
 */
export function checkChain(
  records: readonly JournalRecord[],
  from: ChainPoint | undefined,
): { readonly breaks: ChainBreak[]; readonly end: ChainPoint | undefined } {
  const breaks: ChainBreak[] = [];
  let point = from;
  for (const record of records) {
    const problem = linkProblem(record, point);
    if (problem) breaks.push(problem);
    point = pointOf(record);
  }
  return { breaks, end: point };
}
