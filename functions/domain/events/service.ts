import { type EffectiveTimeOptions, resolveEffectiveAt } from '../accounts/effective-at';
import { explainLegsRejection, postingGuard } from '../accounts/legs';
import { type Metadata, withMetadata } from '../accounts/metadata';
import type { PostingEntry } from '../accounts/model';
import { explainPostingRejection } from '../accounts/rejections';
import { nextSequence, nextSequences } from '../gaps/sequences';
import type { EventSourceAdvance } from '../gaps/source-state';
import { applyWaiver, type GapWaiverInput, type WaiverOutcome } from '../gaps/waiver';
import { type LedgerLeg, ledgerMovement, newLedgerTransaction } from '../ledger-transactions/model';
import { type DomainError, NotFoundError, ValidationError } from '../shared/errors';
import {
  LatencyEstimate,
  MOVED,
  type OptimisticRetryOptions,
  retryOptimistic,
} from '../shared/retry';
import { epochSeconds } from '../shared/time';
import { type TransferRecord, type TransferWrite, transferLegs } from '../transfers/model';
import { explainTransferRejection } from '../transfers/service';
import type { EventLedgerPort, EventRunWrite, EventWriteResult, InboxClaim } from './port';
import { runningBounds } from './runs';

export type { GapWaiverInput, WaiverOutcome } from '../gaps/waiver';

/** A validated ledger event, as the domain sees it. */
export interface LedgerEventInput {
  readonly source: string;
  readonly id: string;
  readonly type: 'credit' | 'debit' | 'transfer' | 'transaction';
  /** The account the event is about (`subject`); a transfer's source. */
  readonly accountId: string;
  /** A transfer's destination (`data.toAccountId`). */
  readonly toAccountId?: string;
  readonly sequence?: number;
  /** A ledger transaction's: Σ of its debits. */
  readonly amount: number;
  readonly currency: string;
  readonly paymentId?: string;
  readonly reference?: string;
  readonly metadata?: Metadata;
  /** `data.effectiveAt` (docs/contract.md §26). @default the commit's own time */
  readonly effectiveAt?: string;
  /** A ledger transaction's legs (docs/contract.md §16); `accountId` is the first debited. */
  readonly legs?: readonly LedgerLeg[];
  /** SHA-256 of the normalised event without `time`, kept by the inbox (docs/contract.md §6). */
  readonly contentHash: string;
}

/**
 * `rejected` carries the domain reason an event can never apply (unknown account, currency,
 * funds, paymentId, balance cap); the consumer maps its code to a dead-letter reason.
 * `id_conflict`: (source, id) was seen before with other content; nothing changed.
 */
export type EventOutcome =
  | { readonly kind: 'applied'; readonly entryId: string; readonly sequence?: EventSourceAdvance }
  | { readonly kind: 'duplicate' }
  | { readonly kind: 'id_conflict'; readonly detail: string }
  | { readonly kind: 'rejected'; readonly error: DomainError };

/** `maxAttempts`: when a concurrent writer moved the sequence item between read and write. */
export interface EventServiceOptions extends OptimisticRetryOptions, EffectiveTimeOptions {
  readonly inboxRetentionSeconds: number;
  /** Ids of the entries and transfers events create. */
  readonly newId: () => string;
  /** `GAP_REFETCH_AFTER_SECONDS`: when a new gap falls due for its re-fetch (§18). */
  readonly gapRefetchAfterSeconds: number;
}

/** Applies ledger events exactly once: the inbox claim and the effect are one transaction. */
export class EventService {
  private readonly newId: () => string;
  /** The sequence loop's backoff, based on how long its read → write usually takes. */
  private readonly retry: OptimisticRetryOptions;

  constructor(
    private readonly port: EventLedgerPort,
    private readonly options: EventServiceOptions,
  ) {
    this.newId = options.newId;
    this.retry = { latency: new LatencyEstimate(), ...options };
  }

  /** The inbox claim of an event: its (source, id), content hash and retention. */
  private claimOf(event: LedgerEventInput, now: Date): InboxClaim {
    const nowSeconds = epochSeconds(now);
    return {
      source: event.source,
      id: event.id,
      contentHash: event.contentHash,
      nowSeconds,
      expiresAt: nowSeconds + this.options.inboxRetentionSeconds,
    };
  }

  /** `data.effectiveAt` resolved (docs/contract.md §26); throws `validation_failed`. */
  private effectiveAtOf(event: LedgerEventInput, now: Date): string {
    return resolveEffectiveAt(
      event.effectiveAt,
      now,
      this.options.backdateLimitDays,
      'data.effectiveAt',
    );
  }

  /** Why `data.effectiveAt` can never apply (poison `validation_failed`), if it cannot. */
  private refusedEffectiveAt(event: LedgerEventInput, now: Date): DomainError | undefined {
    try {
      this.effectiveAtOf(event, now);
      return undefined;
    } catch (error) {
      if (error instanceof ValidationError) return error;
      throw error;
    }
  }

  /** The entry a credit or debit event posts: one definition for both write paths. */
  private postingEntryOf(event: LedgerEventInput, now: Date): PostingEntry {
    return {
      id: this.newId(),
      accountId: event.accountId,
      type: event.type === 'debit' ? 'debit' : 'credit',
      amount: event.amount,
      currency: event.currency,
      reference: event.reference,
      paymentId: event.paymentId,
      ...withMetadata(event.metadata),
      origin: 'event',
      createdAt: now.toISOString(),
      effectiveAt: this.effectiveAtOf(event, now),
    };
  }

  async apply(event: LedgerEventInput, now: Date): Promise<EventOutcome> {
    const claim = this.claimOf(event, now);
    const refused = this.refusedEffectiveAt(event, now);
    if (refused) return { kind: 'rejected', error: refused };
    if (event.type === 'transfer') return this.applyTransfer(event, claim, now);
    if (event.type === 'transaction') return this.applyLedgerTransaction(event, claim, now);
    const entry = this.postingEntryOf(event, now);
    // The producer is trusted by IAM: no owner; the account must be open (docs/contract.md §17).
    const guard = postingGuard(entry);
    return retryOptimistic<EventOutcome>(
      this.retry,
      async () => {
        const advance = await nextSequence(this.port, event, this.sequenceClock(now));
        const result = await this.port.applyEvent(claim, entry, guard, advance?.write);
        if (isInboxAnswer(result)) {
          return outcomeOf(result, event, { entryId: entry.id, sequence: advance?.advance });
        }
        return { kind: 'rejected', error: explainPostingRejection(result, guard) };
      },
      () => new Error(`sequence of ${event.source} kept moving; retry the message later`),
    );
  }

  /**
   * A chunk of one account's credits and debits (`runs.ts` made it) as ONE transaction
   * (docs/contract.md §20): the outcome of every event, all applied, or `refused` when one of
   * them is a duplicate or an id conflict or would be rejected — then nothing was written and
   * the caller applies them one by one, which gives each its own outcome exactly as before.
   * The sequence items are read once per source and advanced event by event, in order.
   */
  async applyRun(
    events: readonly LedgerEventInput[],
    now: Date,
  ): Promise<EventOutcome[] | 'refused'> {
    const first = events[0];
    if (!first) return [];
    // One by one, each event gets its own answer (a refused effectiveAt is poison).
    if (events.some((event) => this.refusedEffectiveAt(event, now))) return 'refused';
    const records = events.map((event) => ({
      event,
      claim: this.claimOf(event, now),
      entry: this.postingEntryOf(event, now),
    }));
    const { drawdown } = runningBounds(events);
    return retryOptimistic<EventOutcome[] | 'refused'>(
      this.retry,
      async () => {
        const { advances, writes } = await nextSequences(
          this.port,
          events,
          this.sequenceClock(now),
        );
        const run: EventRunWrite = {
          accountId: first.accountId,
          currency: first.currency,
          records,
          requireAvailableAtLeast: drawdown > 0 ? drawdown : undefined,
          sequences: writes,
        };
        const result = await this.port.applyEventRun(run);
        if (result.kind === 'sequence_moved') return MOVED;
        if (result.kind === 'refused') return 'refused';
        return records.map(({ entry }, i) => ({
          kind: 'applied',
          entryId: entry.id,
          sequence: advances[i],
        }));
      },
      () => new Error(`sequences of ${first.accountId} kept moving; retry the messages later`),
    );
  }

  /**
   * A transfer event (docs/contract.md §10): the source's owner must own the destination
   * too (else poison owner_mismatch); the source's available balance must cover the amount. The
   * sequence is the source account's, as for any event about it.
   */
  private async applyTransfer(
    event: LedgerEventInput,
    claim: InboxClaim,
    now: Date,
  ): Promise<EventOutcome> {
    const toAccountId = event.toAccountId;
    if (toAccountId === undefined) throw new Error('a transfer event has a destination');
    return retryOptimistic<EventOutcome>(
      this.retry,
      async () => {
        const source = await this.port.getAccount(event.accountId);
        // Nothing can have applied against a missing account, so this is no duplicate either.
        if (!source) return { kind: 'rejected', error: new NotFoundError('Account not found.') };
        const transfer: TransferRecord = {
          id: this.newId(),
          fromAccountId: event.accountId,
          toAccountId,
          amount: event.amount,
          currency: event.currency,
          reference: event.reference,
          paymentId: event.paymentId,
          ...withMetadata(event.metadata),
          createdAt: now.toISOString(),
          effectiveAt: this.effectiveAtOf(event, now),
          ownerId: source.ownerId,
          origin: 'event',
        };
        const legs = transferLegs(transfer, { out: this.newId(), in: this.newId() });
        const write: TransferWrite = { transfer, legs, ownerId: source.ownerId };
        const advance = await nextSequence(this.port, event, this.sequenceClock(now));
        const result = await this.port.applyTransfer(claim, write, advance?.write);
        if (isInboxAnswer(result)) {
          return outcomeOf(result, event, { entryId: legs[0].id, sequence: advance?.advance });
        }
        return {
          kind: 'rejected',
          error: explainTransferRejection(result, write, 'owner_mismatch'),
        };
      },
      () => new Error(`sequence of ${event.source} kept moving; retry the message later`),
    );
  }

  /** A gap waiver (docs/contract.md §18): `waiver.ts`. */
  waive(waiver: GapWaiverInput, now: Date): Promise<WaiverOutcome> {
    return applyWaiver(this.port, this.options, waiver, now);
  }

  /**
   * A ledger-transaction event (docs/contract.md §16): every leg's account must be the owner's
   * of `subject` (the first debited account), else poison owner_mismatch; the rest as over HTTP.
   * The sequence is the subject's, as for any event about it.
   */
  private async applyLedgerTransaction(
    event: LedgerEventInput,
    claim: InboxClaim,
    now: Date,
  ): Promise<EventOutcome> {
    const input = {
      currency: event.currency,
      legs: event.legs ?? [],
      reference: event.reference,
      paymentId: event.paymentId,
      metadata: event.metadata,
      effectiveAt: event.effectiveAt,
    };
    return retryOptimistic<EventOutcome>(
      this.retry,
      async () => {
        const payer = await this.port.getAccount(event.accountId);
        if (!payer) return { kind: 'rejected', error: new NotFoundError('Account not found.') };
        const record = newLedgerTransaction(
          input,
          { id: this.newId(), entryId: this.newId },
          {
            ownerId: payer.ownerId,
            origin: 'event',
            createdAt: now.toISOString(),
            effectiveAt: this.effectiveAtOf(event, now),
          },
        );
        const legs = ledgerMovement(record);
        const advance = await nextSequence(this.port, event, this.sequenceClock(now));
        const result = await this.port.applyLedgerTransaction(
          claim,
          { record, legs },
          advance?.write,
        );
        if (isInboxAnswer(result)) {
          const entryId = legs[0]?.entry.id ?? record.id;
          return outcomeOf(result, event, { entryId, sequence: advance?.advance });
        }
        return { kind: 'rejected', error: explainLegsRejection(result, legs, 'owner_mismatch') };
      },
      () => new Error(`sequence of ${event.source} kept moving; retry the message later`),
    );
  }

  /** Where new gaps open and when the written item falls due (docs/contract.md §18). */
  private sequenceClock(now: Date) {
    return { at: now.toISOString(), refetchAfterSeconds: this.options.gapRefetchAfterSeconds };
  }
}

/** What the inbox and the sequence item answer alike for every kind of event. */
type InboxAnswer = Extract<
  EventWriteResult,
  { readonly kind: 'committed' | 'duplicate' | 'id_conflict' | 'sequence_moved' }
>;
const INBOX_ANSWERS: ReadonlySet<string> = new Set<InboxAnswer['kind']>([
  'committed',
  'duplicate',
  'id_conflict',
  'sequence_moved',
]);

function isInboxAnswer<R extends { readonly kind: string }>(
  result: R,
): result is Extract<R, InboxAnswer> {
  return INBOX_ANSWERS.has(result.kind);
}

/** The outcome of an inbox answer; a commit applied the event as `applied` says. */
function outcomeOf(
  answer: InboxAnswer,
  event: LedgerEventInput,
  applied: Omit<Extract<EventOutcome, { kind: 'applied' }>, 'kind'>,
): EventOutcome | typeof MOVED {
  switch (answer.kind) {
    case 'committed':
      return { kind: 'applied', ...applied };
    case 'duplicate':
      return { kind: 'duplicate' };
    case 'id_conflict':
      return {
        kind: 'id_conflict',
        detail: `event ${event.id} from ${event.source} was already received with other content`,
      };
    case 'sequence_moved':
      return MOVED;
  }
}
