import type { AccountRecord, PostingEntry } from '../accounts/model';
import type { EventSourceState } from '../gaps/source-state';
import type { ErrorCode } from '../shared/errors';

export interface DeadLetter {
  /** The original body, unchanged. */
  readonly body: string;
  readonly code: string;
  readonly detail: string;
  readonly sourceMessageId: string;
}

export interface DeadLetterPort {
  send(letter: DeadLetter): Promise<void>;
}

/**
 * What the inbox says of an event it saw before, whatever the event is: applied (a duplicate),
 * other content (an id conflict), or refused for good (its recorded refusal, replayed like a
 * `409` under an HTTP key: docs/contract.md §6).
 */
export type SeenOutcome =
  | { readonly kind: 'duplicate' }
  | { readonly kind: 'id_conflict' }
  | { readonly kind: 'refused_before'; readonly refusal: RecordedRefusal };

/** A permanent refusal as the inbox keeps it: the domain code and detail of the first answer. */
export interface RecordedRefusal {
  readonly code: ErrorCode;
  readonly detail: string;
}

export interface InboxClaim {
  /** Keeps callback ids and ledger-event ids apart; absent for ledger events. */
  readonly namespace?: string;
  readonly source: string;
  readonly id: string;
  /** Compared with the stored record's hash when (source, id) was seen before. */
  readonly contentHash?: string;
  readonly nowSeconds: number;
  readonly expiresAt: number;
  /**
   * The SQS message id of a redriven dead letter (it carries `error_code`): a refusal recorded
   * under (source, id) is evaluated again once per redriven message (docs/contract.md §6, §31).
   */
  readonly redrive?: string;
}

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

/** A waiver's write answers like any inbox claim; it moves no money, so it has no refusal. */
export type WaiverWriteResult =
  | { readonly kind: 'committed' }
  | { readonly kind: 'duplicate' }
  /** (source, id) was seen before with other content. */
  | { readonly kind: 'id_conflict' }
  | { readonly kind: 'sequence_moved' };

/**
 * One chunk of one account's credits and debits written as ONE transaction (docs/contract.md
 * §20): every record's inbox item, entry and paymentId item, one account update carrying all
 * their changes, one sequence item per source.
 */
export interface EventRunWrite {
  readonly accountId: string;
  readonly currency: string;
  /** In lane order: each record's inbox claim and its entry. */
  readonly records: readonly { readonly claim: InboxClaim; readonly entry: PostingEntry }[];
  readonly sequences: readonly SequenceWrite[];
}

export type EventRunResult =
  | { readonly kind: 'committed' }
  | { readonly kind: 'sequence_moved' }
  /** A record is a duplicate or an id conflict, or would be refused: apply them one by one. */
  | { readonly kind: 'refused' };

export interface VersionedSequence {
  readonly state: EventSourceState;
  readonly version: number;
}

export interface EventLedgerPort {
  getSequence(accountId: string, source: string): Promise<VersionedSequence | undefined>;
  /** ONE transaction: the waiver's inbox item and, when it closes gaps, the sequence item. */
  applyWaiver(claim: InboxClaim, sequence: SequenceWrite | undefined): Promise<WaiverWriteResult>;
  /** ONE transaction for a chunk of one account's credits and debits (docs/contract.md §20). */
  applyEventRun(run: EventRunWrite): Promise<EventRunResult>;
  /**
   * What the inbox says of a claim's (source, id) when a live item holds it (strongly
   * consistent): a duplicate, or an id conflict when its content differs; undefined when unseen.
   */
  seenInbox(claim: InboxClaim): Promise<SeenOutcome | undefined>;
  /**
   * Records a permanent refusal under the claim (one conditional write, like a `409` under an
   * HTTP key): `recorded`, or what the inbox already holds (an effect or refusal committed
   * meanwhile wins).
   */
  recordRefusal(claim: InboxClaim, refusal: RecordedRefusal): Promise<'recorded' | SeenOutcome>;
  /** The event's `subject`: whose owner every account of a transfer or ledger transaction must have. */
  getAccount(accountId: string): Promise<AccountRecord | undefined>;
}
