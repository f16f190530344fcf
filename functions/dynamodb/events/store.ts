import type { EventLedgerPort, EventRunResult, WaiverWriteResult } from '../../domain/events/port';
import { sameInboxContent } from '../../domain/idempotency/fingerprint';
import { inboxOnce } from '../../domain/movements/once';
import { toAccountRecord } from '../accounts/items';
import { unexpectedFailure } from '../idempotency/command';
import { onceFailure, withOnce } from '../movements/once';
import { keys, TTL_ATTRIBUTE } from '../table/keys';
import { getItem } from '../table/reads';
import {
  retryPolicy,
  type StoreOptions,
  type TransactPart,
  transactWithRetry,
} from '../table/transact';
import { inboxScopeId, runParts, toVersionedSequence } from './items';

/**
 * DynamoDB adapter of what is about ledger events only: the sequence items, a waiver, and a
 * batched run of one account's credits and debits (docs/contract.md §18, §20). One event's
 * movement is the movement store's (`dynamodb/movements/store.ts`, §23).
 */
export function createEventStore(options: StoreOptions): EventLedgerPort {
  const { client, tableName } = options;
  const retry = retryPolicy(options);
  /**
   * A write with a sequence item was built from a read of it (its version). Cancelled for
   * contention, it is not retried as is: whoever holds the account is likely moving that
   * sequence too, so the same items would only be cancelled by DynamoDB a moment later, after
   * holding the account for a whole transaction. The service reads again and retries instead,
   * with the same backoff (`sequence_moved`).
   */
  const send = <R extends string>(parts: TransactPart<R>[], readFirst: boolean) =>
    transactWithRetry(client, parts, retry, readFirst ? { contention: 'return' } : {});

  return {
    async getSequence(accountId, source) {
      const item = await getItem(client, tableName, keys.eventSource(accountId, source));
      return item ? toVersionedSequence(item) : undefined;
    },

    async applyWaiver(claim, sequence): Promise<WaiverWriteResult> {
      const once = inboxOnce(claim, sequence);
      const at = new Date(claim.nowSeconds * 1000).toISOString();
      const outcome = await transactWithRetry(client, withOnce(tableName, once, { at }, []), retry);
      if (outcome.kind === 'committed') return outcome;
      const answer = onceFailure(once, outcome.failed);
      if (answer === undefined || answer.kind === 'claimed')
        throw unexpectedFailure(outcome.failed);
      return answer;
    },

    /**
     * A chunk of one account's credits and debits (docs/contract.md §20). Any inbox, account or
     * paymentId condition that fails means one record is a duplicate, an id conflict or a
     * rejection: `refused`, and the records are applied one by one, each judged on its own.
     */
    async applyEventRun(run): Promise<EventRunResult> {
      const outcome = await send(runParts(tableName, run), run.sequences.length > 0);
      if (outcome.kind === 'committed') return outcome;
      if (outcome.kind === 'contended') return { kind: 'sequence_moved' };
      const { failed } = outcome;
      if (failed.has('inbox') || failed.has('account') || failed.has('payment')) {
        return { kind: 'refused' };
      }
      if (failed.has('sequence')) return { kind: 'sequence_moved' };
      throw unexpectedFailure(failed);
    },

    async seenInbox(claim) {
      const scope = inboxScopeId(claim.source, claim.id, claim.namespace);
      const item = await getItem(client, tableName, keys.inbox(scope));
      if (!item || Number(item[TTL_ATTRIBUTE]) < claim.nowSeconds) return undefined;
      return sameInboxContent(item.contentHash, claim.contentHash)
        ? { kind: 'duplicate' }
        : { kind: 'id_conflict' };
    },

    async getAccount(accountId) {
      const item = await getItem(client, tableName, keys.account(accountId));
      return item ? toAccountRecord(item) : undefined;
    },
  };
}
