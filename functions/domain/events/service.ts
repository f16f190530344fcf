import { type EffectiveTimeOptions, resolveEffectiveAt } from '../accounts/effective-at';
import { nextSequence, nextSequences } from '../gaps/sequences';
import type { InboxClaim } from '../idempotency/port';
import { MovementCommands } from '../movements/commands';
import { newLedgerTransactionWrite } from '../movements/ledger-transaction';
import { inboxOnce, type MovementResult, type Once } from '../movements/once';
import type { MovementPort } from '../movements/port';
import { newPosting, type PostingWrite } from '../movements/posting';
import { newTransfer } from '../movements/transfer';
import {
  type DomainError,
  EffectiveTimeRefused,
  LedgerRejection,
  NotFoundError,
  ValidationError,
} from '../shared/errors';
import {
  LatencyEstimate,
  MOVED,
  type OptimisticRetryOptions,
  retryOptimistic,
} from '../shared/retry';
import { type EventOutcome, inboxClaimOf, inboxOutcome, type LedgerEventInput } from './model';
import type { EventLedgerPort, EventRunWrite } from './port';
import { applyWaiver, type GapWaiverInput, type WaiverOutcome } from './waiver';

/** `maxAttempts`: when a concurrent writer moved the sequence item between read and write. */
export interface EventServiceOptions extends OptimisticRetryOptions, EffectiveTimeOptions {
  readonly inboxRetentionSeconds: number;
  /** Ids of the entries and transfers events create. */
  readonly newId: () => string;
  /** `GAP_REFETCH_AFTER_SECONDS`: when a new gap falls due for its re-fetch (§18). */
  readonly gapRefetchAfterSeconds: number;
}

/** A movement ready to be written under whatever claim the attempt makes. */
interface Prepared {
  /** The entry the outcome and the inbox item name. */
  readonly entryId: string;
  readonly write: (once: Once) => Promise<MovementResult>;
}

/**
 * Ledger events, the SQS transport of the movements (docs/contract.md §6, §23): each event is
 * its movement's command under an inbox claim and, when numbered, its sequence item's write.
 */
export class EventService {
  private readonly newId: () => string;
  private readonly movements: MovementCommands;
  /** The sequence loop's backoff, based on how long its read → write usually takes. */
  private readonly retry: OptimisticRetryOptions;

  constructor(
    private readonly port: EventLedgerPort,
    movements: MovementPort,
    private readonly options: EventServiceOptions,
  ) {
    this.newId = options.newId;
    this.movements = new MovementCommands(movements);
    this.retry = { latency: new LatencyEstimate(), ...options };
  }

  /**
   * Who, where from and when (docs/contract.md §26): `data.effectiveAt` resolved, else the
   * commit's time; throws `validation_failed` (poison) for one that can never apply.
   */
  private actorOf(event: LedgerEventInput, now: Date, ownerId: string) {
    const effectiveAt = resolveEffectiveAt(
      event.effectiveAt,
      now,
      this.options.backdateLimitDays,
      'data.effectiveAt',
    );
    return { ownerId, origin: 'event' as const, at: now.toISOString(), effectiveAt };
  }

  /** Why `data.effectiveAt` can never apply (poison `validation_failed`), if it cannot. */
  private refusedEffectiveAt(event: LedgerEventInput, now: Date): DomainError | undefined {
    try {
      this.actorOf(event, now, '');
      return undefined;
    } catch (error) {
      if (error instanceof ValidationError) return error;
      throw error;
    }
  }

  /** The entry a credit or debit event posts: one definition for both write paths. */
  private postingOf(event: LedgerEventInput, now: Date): PostingWrite {
    const type = event.type === 'debit' ? 'debit' : 'credit';
    // The producer is trusted by IAM: no owner; the account must be open (docs/contract.md §17).
    const { ownerId: _none, ...actor } = this.actorOf(event, now, '');
    return newPosting({ ...event, type }, actor, this.newId);
  }

  /** One event: its movement's command, by kind (docs/contract.md §6, §23). */
  apply(event: LedgerEventInput, now: Date): Promise<EventOutcome> {
    switch (event.type) {
      case 'credit':
      case 'debit':
        return this.post(event, now);
      case 'transfer':
        return this.inOrder(event, now, () => this.transfer(event, now));
      case 'transaction':
        return this.inOrder(event, now, () => this.ledgerTransaction(event, now));
    }
  }

  /**
   * A credit or debit event: its entry, then the sequence loop writes it with the inbox claim
   * (a `data.effectiveAt` that can never apply is poison `validation_failed`, nothing written).
   */
  private post(event: LedgerEventInput, now: Date): Promise<EventOutcome> {
    return this.inOrder(event, now, async () => {
      const posting = this.postingOf(event, now);
      return { entryId: posting.entry.id, write: (once) => this.movements.post(once, posting) };
    });
  }

  /**
   * The sequence loop every event shares: prepare the movement, read the sequence, write both
   * with the inbox claim; again from the read while another writer moved the sequence.
   */
  private inOrder(
    event: LedgerEventInput,
    now: Date,
    prepare: () => Promise<Prepared | EventOutcome>,
  ): Promise<EventOutcome> {
    const claim = inboxClaimOf(event, now, this.options.inboxRetentionSeconds);
    return retryOptimistic<EventOutcome>(
      this.retry,
      async () => {
        const prepared = await prepare().catch((error) => this.refusedAsPoison(error, claim));
        if ('kind' in prepared) return prepared;
        const advance = await nextSequence(this.port, event, this.sequenceClock(now));
        const result = await prepared.write(inboxOnce(claim, advance?.write));
        const applied = { entryId: prepared.entryId, sequence: advance?.advance };
        const outcome = inboxOutcome(result, { kind: 'applied' as const, ...applied });
        return outcome !== MOVED && outcome.kind === 'rejected'
          ? this.recorded(claim, outcome)
          : outcome;
      },
      () => new Error(`sequence of ${event.source} kept moving; retry the message later`),
    );
  }

  /**
   * A transfer event (docs/contract.md §10): the source's owner must own the destination
   * too (else poison owner_mismatch); the source's available balance must cover the amount. The
   * sequence is the source account's, as for any event about it.
   */
  private async transfer(event: LedgerEventInput, now: Date): Promise<Prepared | EventOutcome> {
    const toAccountId = event.toAccountId;
    if (toAccountId === undefined) throw new Error('a transfer event has a destination');
    const source = await this.port.getAccount(event.accountId);
    // Nothing can have applied against a missing account, so this is no duplicate either.
    if (!source) return { kind: 'rejected', error: new NotFoundError('Account not found.') };
    const actor = this.actorOf(event, now, source.ownerId);
    const write = newTransfer(
      { ...event, fromAccountId: event.accountId, toAccountId },
      actor,
      this.newId,
    );
    return { entryId: write.legs[0].id, write: (once) => this.movements.transfer(once, write) };
  }

  /**
   * A ledger-transaction event (docs/contract.md §16): every leg's account must be the owner's
   * of `subject` (the first debited account), else poison owner_mismatch; the rest as over HTTP.
   * The sequence is the subject's, as for any event about it.
   */
  private async ledgerTransaction(
    event: LedgerEventInput,
    now: Date,
  ): Promise<Prepared | EventOutcome> {
    const payer = await this.port.getAccount(event.accountId);
    if (!payer) return { kind: 'rejected', error: new NotFoundError('Account not found.') };
    const actor = this.actorOf(event, now, payer.ownerId);
    const write = newLedgerTransactionWrite(
      { ...event, currency: event.transaction?.currency, ...(event.transaction ?? { legs: [] }) },
      actor,
      this.newId,
    );
    return {
      entryId: write.legs[0]?.entry.id ?? write.record.id,
      write: (once) => this.movements.ledgerTransaction(once, write),
    };
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
      claim: inboxClaimOf(event, now, this.options.inboxRetentionSeconds),
      entry: this.postingOf(event, now).entry,
    }));
    // A deferred account's credits take intake (§24), never a run on the account item.
    if (this.movements.defers(records.map(({ entry }) => entry))) return 'refused';
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
   * A ValidationError thrown while an event's movement is built (its `data.effectiveAt`): a
   * duplicate is a duplicate before any check of time (docs/contract.md §31), so a refused time
   * asks the inbox first; an unseen event is poison.
   */
  private async refusedAsPoison(error: unknown, claim: InboxClaim): Promise<EventOutcome> {
    if (!(error instanceof ValidationError)) throw error;
    const seen =
      error instanceof EffectiveTimeRefused ? await this.port.seenInbox(claim) : undefined;
    return seen ?? { kind: 'rejected', error };
  }

  /**
   * A refusal from the ledger's state (funds, a closed account or period, …) is final, like a
   * `409` under an HTTP key (docs/contract.md §6): recorded under the event's (source, id), so a
   * later delivery replays it however the account changed; only a redriven dead letter is
   * evaluated again, once. An effect or refusal committed meanwhile wins. Other refusals (an
   * unknown account, `validation_failed`) are not recorded, as over HTTP.
   */
  private async recorded(
    claim: InboxClaim,
    outcome: { readonly kind: 'rejected'; readonly error: DomainError },
  ): Promise<EventOutcome> {
    const { error } = outcome;
    if (!(error instanceof LedgerRejection)) return outcome;
    const seen = await this.port.recordRefusal(claim, { code: error.code, detail: error.detail });
    return seen === 'recorded' ? outcome : seen;
  }

  /** A gap waiver (docs/contract.md §18): `waiver.ts`. */
  waive(waiver: GapWaiverInput, now: Date): Promise<WaiverOutcome> {
    return applyWaiver(this.port, this.options, waiver, now);
  }

  /** Where new gaps open and when the written item falls due (docs/contract.md §18). */
  private sequenceClock(now: Date) {
    return { at: now.toISOString(), refetchAfterSeconds: this.options.gapRefetchAfterSeconds };
  }
}
