import type { PostingEntry } from '../accounts/model';
import type { EntryGuard } from '../accounts/port';
import { explainPostingRejection } from '../accounts/rejections';
import { type DomainError, NotFoundError } from '../shared/errors';
import {
  LatencyEstimate,
  MOVED,
  type OptimisticRetryOptions,
  retryOptimistic,
} from '../shared/retry';
import { epochSeconds } from '../shared/time';
import { type TransferRecord, type TransferWrite, transferLegs } from '../transfers/model';
import { explainTransferRejection } from '../transfers/service';
import type {
  EventLedgerPort,
  EventRunWrite,
  EventWriteResult,
  InboxClaim,
  SequenceWrite,
} from './port';
import { runningBounds } from './runs';
import {
  advanceSequence,
  EMPTY_SEQUENCE,
  type SequenceAdvance,
  type SequenceState,
} from './sequence';

/** A validated ledger event, as the domain sees it. */
export interface LedgerEventInput {
  readonly source: string;
  readonly id: string;
  readonly type: 'credit' | 'debit' | 'transfer';
  /** The account the event is about (`subject`); a transfer's source. */
  readonly accountId: string;
  /** A transfer's destination (`data.toAccountId`). */
  readonly toAccountId?: string;
  readonly sequence?: number;
  readonly amount: number;
  readonly currency: string;
  readonly paymentId?: string;
  readonly reference?: string;
  /** SHA-256 of the normalised event without `time`, kept by the inbox (docs/contract.md §6). */
  readonly contentHash: string;
}

/**
 * `rejected` carries the domain reason an event can never apply (unknown account, currency,
 * funds, paymentId, balance cap); the consumer maps its code to a dead-letter reason.
 * `id_conflict`: (source, id) was seen before with other content; nothing changed.
 */
export type EventOutcome =
  | { readonly kind: 'applied'; readonly entryId: string; readonly sequence?: SequenceAdvance }
  | { readonly kind: 'duplicate' }
  | { readonly kind: 'id_conflict'; readonly detail: string }
  | { readonly kind: 'rejected'; readonly error: DomainError };

/** `maxAttempts`: when a concurrent writer moved the sequence item between read and write. */
export interface EventServiceOptions extends OptimisticRetryOptions {
  readonly inboxRetentionSeconds: number;
  /** Ids of the entries and transfers events create. */
  readonly newId: () => string;
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
      origin: 'event',
      createdAt: now.toISOString(),
    };
  }

  async apply(event: LedgerEventInput, now: Date): Promise<EventOutcome> {
    const claim = this.claimOf(event, now);
    if (event.type === 'transfer') return this.applyTransfer(event, claim, now);
    const entry = this.postingEntryOf(event, now);
    const guard: EntryGuard = {
      currency: event.currency,
      requireAvailableAtLeast: event.type === 'debit' ? event.amount : undefined,
      increaseBy: event.type === 'credit' ? event.amount : undefined,
    };
    return retryOptimistic<EventOutcome>(
      this.retry,
      async () => {
        const advance = await this.nextSequence(event);
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
    const records = events.map((event) => ({
      event,
      claim: this.claimOf(event, now),
      entry: this.postingEntryOf(event, now),
    }));
    const { drawdown } = runningBounds(events);
    return retryOptimistic<EventOutcome[] | 'refused'>(
      this.retry,
      async () => {
        const { advances, writes } = await this.nextSequences(events);
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
          createdAt: now.toISOString(),
          ownerId: source.ownerId,
          origin: 'event',
        };
        const legs = transferLegs(transfer, { out: this.newId(), in: this.newId() });
        const write: TransferWrite = { transfer, legs, ownerId: source.ownerId };
        const advance = await this.nextSequence(event);
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

  private async nextSequence(event: LedgerEventInput) {
    if (event.sequence === undefined) return undefined;
    const current = await this.port.getSequence(event.accountId, event.source);
    const advance = advanceSequence(current?.state ?? EMPTY_SEQUENCE, event.sequence);
    // A stale number changes nothing, so it need not contend for the sequence item.
    if (advance.position === 'stale') return { advance, write: undefined };
    const write: SequenceWrite = {
      source: event.source,
      accountId: event.accountId,
      expectedVersion: current?.version ?? 0,
      next: advance.state,
    };
    return { advance, write };
  }

  /**
   * The sequence advance of each event of a chunk, in order, and one write per source whose
   * state changed: each source's item is read once and every event of it moves it on in turn.
   */
  private async nextSequences(events: readonly LedgerEventInput[]) {
    const sources = new Map<string, { version: number; state: SequenceState; moved: boolean }>();
    const numbered = [
      ...new Set(events.filter((e) => e.sequence !== undefined).map((e) => e.source)),
    ];
    // One read per source, all at once: the longer the reads take, the likelier another
    // writer moves a sequence before this write lands.
    const read = await Promise.all(
      numbered.map((source) => this.port.getSequence(events[0]?.accountId ?? '', source)),
    );
    numbered.forEach((source, i) => {
      const current = read[i];
      sources.set(source, {
        version: current?.version ?? 0,
        state: current?.state ?? EMPTY_SEQUENCE,
        moved: false,
      });
    });
    const advances = events.map((event) => {
      const source = sources.get(event.source);
      if (event.sequence === undefined || !source) return undefined;
      const advance = advanceSequence(source.state, event.sequence);
      if (advance.position !== 'stale')
        Object.assign(source, { state: advance.state, moved: true });
      return advance;
    });
    const accountId = events[0]?.accountId ?? '';
    const writes: SequenceWrite[] = [...sources]
      .filter(([, s]) => s.moved)
      .map(([source, s]) => ({ source, accountId, expectedVersion: s.version, next: s.state }));
    return { advances, writes };
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
