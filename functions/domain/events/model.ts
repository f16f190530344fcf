import type { ExchangeRate } from '../accounts/ledger-currencies';
import type { LedgerLeg } from '../accounts/ledger-transaction-record';
import type { Metadata } from '../accounts/metadata';
import type { EventSourceAdvance } from '../gaps/source-state';
import type { InboxClaim } from '../idempotency/port';
import type { MovementResult } from '../movements/once';
import type { DomainError } from '../shared/errors';
import { MOVED } from '../shared/retry';
import { epochSeconds } from '../shared/time';
import type { SeenOutcome } from './port';

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
  /** A ledger transaction's: its top-level currency, else its first leg's (runs group by it). */
  readonly currency: string;
  readonly paymentId?: string;
  readonly reference?: string;
  readonly metadata?: Metadata;
  /** `data.effectiveAt` (docs/contract.md §26). @default the commit's own time */
  readonly effectiveAt?: string;
  /**
   * A ledger transaction as its `data` gave it (docs/contract.md §16, §35): `currency` only
   * when sent, the legs (`accountId` is the first debited), the recorded `rates`.
   */
  readonly transaction?: {
    readonly currency?: string;
    readonly legs: readonly LedgerLeg[];
    readonly rates?: readonly ExchangeRate[];
  };
  /** SHA-256 of the normalised event without `time`, kept by the inbox (docs/contract.md §6). */
  readonly contentHash: string;
  /** The message id when it is a redriven dead letter: {@link InboxClaim.redrive}. */
  readonly redrive?: string;
}

/**
 * `rejected` carries the domain reason an event can never apply (unknown account, currency,
 * funds, paymentId, balance cap); the consumer maps its code to a dead-letter reason.
 * `id_conflict`: (source, id) was seen before with other content; nothing changed.
 */
export type EventOutcome =
  | { readonly kind: 'applied'; readonly entryId: string; readonly sequence?: EventSourceAdvance }
  | SeenOutcome
  | { readonly kind: 'rejected'; readonly error: DomainError };

export type { SeenOutcome } from './port';

/** The inbox claim of an event or a waiver: its (source, id), content hash and retention. */
export function inboxClaimOf(
  event: {
    readonly source: string;
    readonly id: string;
    readonly contentHash: string;
    readonly redrive?: string;
  },
  now: Date,
  retentionSeconds: number,
): InboxClaim {
  const nowSeconds = epochSeconds(now);
  return {
    source: event.source,
    id: event.id,
    contentHash: event.contentHash,
    nowSeconds,
    expiresAt: nowSeconds + retentionSeconds,
    ...(event.redrive === undefined ? {} : { redrive: event.redrive }),
  };
}

type Rejected<R> = R extends { readonly kind: 'rejected' } ? R : never;

/**
 * THE meaning of an inbox claim's answer for every kind of event and for a waiver: committed →
 * `applied` (what the caller says was applied), seen before → duplicate, id conflict or the
 * recorded refusal, the
 * sequence moved → read again (MOVED), a refusal → rejected.
 */
export function inboxOutcome<R extends MovementResult, A>(
  result: R,
  applied: A,
): A | Extract<R, SeenOutcome> | Rejected<R> | typeof MOVED {
  switch (result.kind) {
    case 'committed':
      return applied;
    case 'duplicate':
    case 'id_conflict':
    case 'refused_before':
      return result as Extract<R, SeenOutcome>;
    case 'sequence_moved':
      return MOVED;
    case 'rejected':
      return result as Rejected<R>;
    case 'claimed':
      throw new Error('an inbox claim was answered as a request claim');
  }
}
