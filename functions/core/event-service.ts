import type { DomainError } from './errors';
import type { AccountRecord, LedgerEntry } from './model';
import type { EntryGuard } from './ports';
import { explainPostingRejection } from './rejections';
import { MOVED, type OptimisticRetryOptions, retryOptimistic } from './retry';
import {
  advanceSequence,
  EMPTY_SEQUENCE,
  type SequenceAdvance,
  type SequenceState,
} from './sequence';

/** A validated ledger event, as the core sees it. */
export interface LedgerEventInput {
  readonly source: string;
  readonly id: string;
  readonly type: 'credit' | 'debit';
  readonly accountId: string;
  readonly sequence?: number;
  readonly amount: number;
  readonly currency: string;
  readonly paymentId?: string;
  readonly reference?: string;
}

/**
 * `rejected` carries the domain reason an event can never apply (unknown account, currency,
 * funds, paymentId); the consumer maps its code to a dead-letter reason.
 */
export type EventOutcome =
  | { readonly kind: 'applied'; readonly entryId: string; readonly sequence?: SequenceAdvance }
  | { readonly kind: 'duplicate' }
  | { readonly kind: 'rejected'; readonly error: DomainError };

export interface InboxClaim {
  /** Keeps callback ids and ledger-event ids apart; absent for ledger events. */
  readonly namespace?: string;
  readonly source: string;
  readonly id: string;
  readonly nowSeconds: number;
  readonly expiresAt: number;
}

/** The sequence item's expected version and its next state, written in the same transaction. */
export interface SequenceWrite {
  readonly source: string;
  readonly accountId: string;
  /** The version read; 0 when the item did not exist. */
  readonly expectedVersion: number;
  readonly next: SequenceState;
}

export type EventWriteResult =
  | { readonly kind: 'committed' }
  | { readonly kind: 'duplicate' }
  | { readonly kind: 'sequence_moved' }
  | { readonly kind: 'account_rejected'; readonly account: AccountRecord | undefined }
  | { readonly kind: 'payment_id_taken' };

export interface VersionedSequence {
  readonly state: SequenceState;
  readonly version: number;
}

export interface EventLedgerPort {
  getSequence(accountId: string, source: string): Promise<VersionedSequence | undefined>;
  applyEvent(
    claim: InboxClaim,
    entry: LedgerEntry,
    guard: EntryGuard,
    sequence: SequenceWrite | undefined,
  ): Promise<EventWriteResult>;
}

/** `maxAttempts`: when a concurrent writer moved the sequence item between read and write. */
export interface EventServiceOptions extends OptimisticRetryOptions {
  readonly inboxRetentionSeconds: number;
  readonly newId?: () => string;
}

/** Applies ledger events exactly once: the inbox claim and the effect are one transaction. */
export class EventService {
  private readonly newId: () => string;

  constructor(
    private readonly port: EventLedgerPort,
    private readonly options: EventServiceOptions,
  ) {
    this.newId = options.newId ?? (() => crypto.randomUUID());
  }

  async apply(event: LedgerEventInput, now: Date): Promise<EventOutcome> {
    const nowSeconds = Math.floor(now.getTime() / 1000);
    const claim: InboxClaim = {
      source: event.source,
      id: event.id,
      nowSeconds,
      expiresAt: nowSeconds + this.options.inboxRetentionSeconds,
    };
    const entry: LedgerEntry = {
      id: this.newId(),
      accountId: event.accountId,
      type: event.type,
      amount: event.amount,
      currency: event.currency,
      reference: event.reference,
      paymentId: event.paymentId,
      origin: 'event',
      createdAt: now.toISOString(),
    };
    const guard: EntryGuard = {
      currency: event.currency,
      requireBalanceAtLeast: event.type === 'debit' ? event.amount : undefined,
    };
    return retryOptimistic<EventOutcome>(
      this.options,
      async () => {
        const advance = await this.nextSequence(event);
        const result = await this.port.applyEvent(claim, entry, guard, advance?.write);
        switch (result.kind) {
          case 'committed':
            return { kind: 'applied', entryId: entry.id, sequence: advance?.advance };
          case 'duplicate':
            return { kind: 'duplicate' };
          case 'sequence_moved':
            return MOVED;
          default:
            return { kind: 'rejected', error: explainPostingRejection(result, guard) };
        }
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
}
