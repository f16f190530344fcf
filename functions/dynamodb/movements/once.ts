import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import type { Once, OnceAnswer } from '../../domain/movements/once';
import { paidExportItems } from '../exports/items';
import { sequenceItem } from '../gaps/sequence-items';
import { claimedFailure, claimItem } from '../idempotency/command';
import { inboxItem, seenInboxItem } from '../idempotency/inbox';
import type { TransactOptions, TransactPart } from '../table/transact';

/**
 * The items a claim writes: the request record (and for an export what its fee pays for), or
 * the inbox item and the sequence item.
 */
export type OnceRole = 'claim' | 'export' | 'inbox' | 'sequence';

/** What the movement's items tell its claim: the entry it names, the time of the write. */
export interface OnceContext {
  /** The first entry the movement writes: an inbox item remembers it (docs/contract.md §6). */
  readonly entryId?: string;
  /** ISO-8601: the sequence item's `updatedAt`. */
  readonly at: string;
}

/**
 * Wraps a movement's items in its claim, as ONE transaction lists them: the claim first
 * (decisive: a seen claim settles the attempt, whatever else conflicted), the movement, then
 * the sequence item of a numbered event.
 */
export function withOnce<R extends string>(
  tableName: string,
  once: Once,
  context: OnceContext,
  movement: readonly TransactPart<R>[],
): TransactPart<R | OnceRole>[] {
  switch (once.kind) {
    case 'request':
      return [
        { role: 'claim', item: claimItem(tableName, once.claim), decisive: true },
        ...movement,
      ];
    case 'export':
      return [
        { role: 'claim', item: claimItem(tableName, once.claim), decisive: true },
        ...movement,
        ...paidExportItems(tableName, once.paysFor).map((item) => ({
          role: 'export' as const,
          item,
        })),
      ];
    case 'inbox': {
      const parts: TransactPart<R | OnceRole>[] = [
        { role: 'inbox', item: inboxItem(tableName, once.claim, context.entryId), decisive: true },
        ...movement,
      ];
      if (once.sequence) {
        const item: TransactWriteItem = sequenceItem(tableName, once.sequence, context.at);
        parts.push({ role: 'sequence', item });
      }
      return parts;
    }
  }
}

/**
 * A write with a sequence item was built from a read of it (its version). Cancelled for
 * contention, it is not retried as is: whoever holds the account is likely moving that sequence
 * too, so the same items would only be cancelled a moment later, after holding the account for
 * a whole transaction. The command reads again and retries instead (`sequence_moved`).
 */
export const onceTransactOptions = (once: Once): TransactOptions =>
  once.kind === 'inbox' && once.sequence !== undefined ? { contention: 'return' } : {};

/**
 * The claim's answer when it is what cancelled the write: a request seen before (its record),
 * an event seen before (a duplicate, or an id conflict when its content differs), a sequence
 * moved since it was read. Undefined when the claim held: the movement's own items refused.
 */
export function onceFailure(
  once: Once,
  failed: ReadonlyMap<string, Record<string, unknown> | undefined>,
): OnceAnswer | undefined {
  switch (once.kind) {
    case 'request':
    case 'export':
      return claimedFailure(failed);
    case 'inbox': {
      // A duplicate wins over everything: its effect (or its refusal) already happened.
      if (failed.has('inbox')) return seenInboxItem(failed.get('inbox') ?? {}, once.claim);
      if (failed.has('sequence')) return { kind: 'sequence_moved' };
      return undefined;
    }
  }
}
