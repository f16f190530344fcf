import type { Metadata } from '../accounts/metadata';
import type { AccountRecord, LedgerEntry } from '../accounts/model';
import type { JournalRecord } from '../journal/model';
import type { IndexedObject, IndexPlan, Pair, SearchKind } from './model';

/** What the projector hands the indexer (docs/contract.md §34): at least once, any order. */
export type IndexJob =
  /** An account's journal grew to `through`; its records from `from` on are new. */
  | {
      readonly kind: 'journal';
      readonly accountId: string;
      readonly from: number;
      readonly through: number;
    }
  /** An account was created or its metadata changed: index it as it is now. */
  | { readonly kind: 'account'; readonly accountId: string };

/** The indexer's queue (SQS on AWS, fauxqs locally). */
export interface IndexQueue {
  /** Sends the jobs; answers those NOT accepted (to be handed again). */
  send(jobs: readonly IndexJob[]): Promise<readonly IndexJob[]>;
}

/** How far an account's entries are indexed: its journal's sequence and commit time. */
export interface IndexHead {
  readonly sequence: number;
  readonly committedAt: string;
}

/** What one object's indexing reports: written, or the object's record moved meanwhile. */
export type IndexWriteResult = { readonly kind: 'written' } | { readonly kind: 'moved' };

/** The object's record of indexed pairs and its revision (the guard of the next write). */
export interface IndexedState {
  readonly object: IndexedObject;
  readonly revision: number;
}

/** The indexer's storage. */
export interface SearchIndexPort {
  /** The object's record of indexed pairs, strongly consistent. */
  indexed(kind: SearchKind, id: string): Promise<IndexedState | undefined>;
  /**
   * ONE transaction: the object's record as `next` (while it is still `previous`), an index item
   * per pair of `plan.put` (each carrying every pair), the removed pairs' items deleted, and the
   * count of each added (+1) and removed (−1) pair.
   */
  write(
    previous: IndexedState | undefined,
    next: IndexedObject,
    plan: IndexPlan,
  ): Promise<IndexWriteResult>;
  readHead(accountId: string): Promise<IndexHead | undefined>;
  /** Raises the account's head to `head` (never lowers it). */
  raiseHead(accountId: string, head: IndexHead): Promise<void>;
}

/** What the indexer reads of the ledger. */
export interface IndexSourcePort {
  /** The account and its metadata (its own item). */
  account(accountId: string): Promise<{ account: AccountRecord; metadata?: Metadata } | undefined>;
  /** Records `from … to`, ascending, strongly consistent. */
  records(accountId: string, from: number, to: number): Promise<JournalRecord[]>;
  /** A posted entry by id. */
  entry(accountId: string, entryId: string): Promise<LedgerEntry | undefined>;
}

/** One page of a Query of the rarest filter's partition, filtered over the copied pairs. */
export interface IndexPage {
  /** The objects' ids in the order found: newest first. */
  readonly hits: readonly {
    readonly id: string;
    readonly accountId?: string;
    readonly sortAt: string;
  }[];
  readonly nextCursor: string | null;
}

/** What a search reads. */
export interface SearchReadPort {
  /** The count of each pair (0 for none), in order. */
  counts(ownerId: string, kind: SearchKind, pairs: readonly Pair[]): Promise<number[]>;
  /**
   * ONE Query of `rarest`'s partition, newest first, at most `limit` items read, keeping those
   * that carry every pair of `others` (and the name prefix / account): pages may be short.
   */
  query(input: {
    readonly ownerId: string;
    readonly kind: SearchKind;
    readonly rarest: Pair;
    readonly others: readonly Pair[];
    readonly name?: string;
    readonly accountId?: string;
    readonly limit: number;
    readonly cursor?: string;
  }): Promise<IndexPage>;
  /** The accounts with their metadata, in order; undefined where gone. */
  accounts(ids: readonly string[]): Promise<(AccountRecord | undefined)[]>;
  /** The entries, in order; undefined where gone. */
  entries(hits: IndexPage['hits']): Promise<(LedgerEntry | undefined)[]>;
  /** The account as stored (its owner), for `accountId=`. */
  account(accountId: string): Promise<AccountRecord | undefined>;
  readHead(accountId: string): Promise<IndexHead | undefined>;
}
