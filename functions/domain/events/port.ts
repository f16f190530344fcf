import type { AccountRecord, PostingEntry } from '../accounts/model';
import type { SequenceReader, SequenceWrite } from '../gaps/port';
import type { InboxClaim, RecordedRefusal, SeenOutcome } from '../idempotency/port';

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

export type { SeenOutcome } from '../idempotency/port';

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

export interface EventLedgerPort extends SequenceReader {
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
