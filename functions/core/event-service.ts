import { optimisticBackoffMs, sleep } from './backoff';
import type { AccountRecord, LedgerEntry } from './model';
import { exceedsBalanceLimit } from './money';
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
  /** SHA-256 of the normalised event without `time`, kept by the inbox (docs/contract.md §6). */
  readonly contentHash: string;
}

/** Permanent failures go to the DLQ with this code (CONTRACT §6). */
export const POISON_CODES = [
  'invalid_json',
  'schema_invalid',
  'validation_failed',
  'unknown_account',
  'currency_mismatch',
  'insufficient_funds',
  'payment_id_conflict',
  'id_conflict',
  'balance_limit_exceeded',
] as const;
export type PoisonCode = (typeof POISON_CODES)[number];

export type EventOutcome =
  | { readonly kind: 'applied'; readonly entryId: string; readonly sequence?: SequenceAdvance }
  | { readonly kind: 'duplicate' }
  | { readonly kind: 'poison'; readonly code: PoisonCode; readonly detail: string };

export interface InboxClaim {
  /** Keeps callback ids and ledger-event ids apart; absent for ledger events. */
  readonly namespace?: string;
  readonly source: string;
  readonly id: string;
  /** Compared with the stored record's hash when (source, id) was seen before. */
  readonly contentHash?: string;
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
  /** (source, id) was seen before with other content. */
  | { readonly kind: 'id_conflict' }
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
    guard: { currency: string; requireBalanceAtLeast?: number },
    sequence: SequenceWrite | undefined,
  ): Promise<EventWriteResult>;
}

export interface EventServiceOptions {
  readonly inboxRetentionSeconds: number;
  readonly newId?: () => string;
  /** Attempts when a concurrent writer moved the sequence item between read and write. */
  readonly maxSequenceAttempts?: number;
  /** Waits between attempts (tests pass a no-op). */
  readonly sleep?: (ms: number) => Promise<void>;
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
      contentHash: event.contentHash,
      nowSeconds,
      expiresAt: nowSeconds + this.options.inboxRetentionSeconds,
    };
    const entry: LedgerEntry = {
      id: this.newId(),
      accountId: event.accountId,
      type: event.type,
      amount: event.amount,
      currency: event.currency,
      ...(event.reference === undefined ? {} : { reference: event.reference }),
      ...(event.paymentId === undefined ? {} : { paymentId: event.paymentId }),
      origin: 'event',
      createdAt: now.toISOString(),
    };
    const guard = {
      currency: event.currency,
      ...(event.type === 'debit' ? { requireBalanceAtLeast: event.amount } : {}),
    };
    const attempts = this.options.maxSequenceAttempts ?? 8;
    const pause = this.options.sleep ?? sleep;
    for (let attempt = 1; ; attempt++) {
      const advance = await this.nextSequence(event);
      const result = await this.port.applyEvent(claim, entry, guard, advance?.write);
      switch (result.kind) {
        case 'committed':
          return {
            kind: 'applied',
            entryId: entry.id,
            ...(advance ? { sequence: advance.advance } : {}),
          };
        case 'duplicate':
          return { kind: 'duplicate' };
        case 'id_conflict':
          return poison(
            'id_conflict',
            `event ${event.id} from ${event.source} was already received with other content`,
          );
        case 'payment_id_taken':
          return poison(
            'payment_id_conflict',
            `paymentId ${event.paymentId} was already used on this account`,
          );
        case 'account_rejected':
          return rejectedByAccount(event, result.account);
        case 'sequence_moved':
          if (attempt >= attempts) {
            throw new Error(`sequence of ${event.source} kept moving; retry the message later`);
          }
          await pause(optimisticBackoffMs(attempt));
      }
    }
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

function poison(code: PoisonCode, detail: string): EventOutcome {
  return { kind: 'poison', code, detail };
}

function rejectedByAccount(
  event: LedgerEventInput,
  account: AccountRecord | undefined,
): EventOutcome {
  if (!account) return poison('unknown_account', `account ${event.accountId} does not exist`);
  if (account.currency !== event.currency) {
    return poison(
      'currency_mismatch',
      `account holds ${account.currency}, event is in ${event.currency}`,
    );
  }
  if (event.type === 'debit' && account.balance < event.amount) {
    return poison('insufficient_funds', `debit of ${event.amount} exceeds the balance`);
  }
  if (event.type === 'credit' && exceedsBalanceLimit(account.balance, event.amount)) {
    return poison('balance_limit_exceeded', `credit of ${event.amount} would pass 2^53 − 1`);
  }
  // The guard failed on a state that satisfies it: treat as transient, never as poison.
  throw new Error('account guard failed without a failing rule');
}
