import type { EventSourceState } from './source-state';

/** The sequence item's expected version and its next state, written in the same transaction. */
export interface SequenceWrite {
  readonly source: string;
  readonly accountId: string;
  /** The version read; 0 when the item did not exist. */
  readonly expectedVersion: number;
  readonly next: EventSourceState;
  /**
   * Epoch ms at which the item falls due for the sweeper (its earliest gap's re-fetch or
   * overdue time, `sourceDueAt`); undefined without open gaps: the item leaves the due index.
   */
  readonly dueAt: number | undefined;
}

export interface VersionedSequence {
  readonly state: EventSourceState;
  readonly version: number;
}

/** Reads an account's sequence item of one source, strongly consistent, with its version. */
export interface SequenceReader {
  getSequence(accountId: string, source: string): Promise<VersionedSequence | undefined>;
}

/**
 * One event source's sequence tracking for an account, as `GET …/event-sources` lists it
 * (docs/contract.md §5, §6, §18): the source's state, gaps with their details, waived numbers.
 */
export interface EventSourceView extends EventSourceState {
  readonly source: string;
}

/** What the sweeper's due item names: one ledger-event source of one account. */
export interface SourceRef {
  readonly accountId: string;
  readonly source: string;
}

/**
 * A re-fetch request (docs/contract.md §18), as committed before it is published. Its `id`
 * hashes (source, subject, the numbers), so every request names each gap number once.
 */
export interface RefetchRequest {
  readonly id: string;
  readonly accountId: string;
  /** The producer's source. */
  readonly source: string;
  readonly missing: readonly number[];
  /** The earliest `openedAt` of the numbers. */
  readonly openedAt: string;
  readonly requestedAt: string;
}

/** `ledger.gap.refetch.v1` as it goes out: a CloudEvents 1.0 JSON event. */
export interface RefetchEvent {
  readonly specversion: '1.0';
  readonly type: string;
  readonly id: string;
  readonly source: string;
  readonly subject: string;
  readonly time: string;
  readonly datacontenttype: 'application/json';
  readonly data: {
    readonly source: string;
    readonly missing: readonly number[];
    readonly openedAt: string;
  };
}

export type CommitRequestResult =
  | { readonly kind: 'committed' }
  /** The sequence item moved since it was read, or the request exists: someone else went first. */
  | { readonly kind: 'already_done' };

/** The table side of re-fetch requests. */
export interface GapRequestStore {
  /** The sequence item, read strongly consistent. */
  readSource(ref: SourceRef): Promise<VersionedSequence | undefined>;
  /**
   * ONE transaction: the request item (new, due again at `republishAt` until it is marked
   * published) and the sequence item (conditional on the version read).
   */
  commitRequest(
    request: RefetchRequest,
    event: RefetchEvent,
    sequence: SequenceWrite,
    republishAt: number,
  ): Promise<CommitRequestResult>;
  /**
   * The sequence item alone, conditional on the version read (its overdue gaps counted, due
   * again later, docs/contract.md §30); `already_done` when another writer moved it.
   */
  reschedule(sequence: SequenceWrite, at: Date): Promise<CommitRequestResult>;
  /** Marks a request published and takes it out of the due index; false when it already was. */
  markPublished(requestId: string, at: Date): Promise<boolean>;
}

/** The topic: at least once; a throw leaves the request due for the next sweep. */
export interface GapRequestPublisher {
  publish(event: RefetchEvent): Promise<void>;
}
