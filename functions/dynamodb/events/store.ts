import type { EventLedgerPort, EventRunResult, WaiverWriteResult } from '../../domain/events/port';
import { inboxOnce } from '../../domain/movements/once';
import { toAccountRecord } from '../accounts/items';
import { unexpectedFailure } from '../idempotency/command';
import { composeMoney } from '../movements/compose';
import { commitMoney } from '../movements/decode';
import { onceFailure, withOnce } from '../movements/once';
import { keys, TTL_ATTRIBUTE } from '../table/keys';
import { getItem } from '../table/reads';
import { retryPolicy, type StoreOptions, transactWithRetry } from '../table/transact';
import { inboxItem, inboxScopeId, runPlan, seenInboxItem, toVersionedSequence } from './items';

/**
 * DynamoDB adapter of what is about ledger events only: the sequence items, a waiver, and a
 * batched run of one account's credits and debits (docs/contract.md §18, §20). One event's
 * movement is the movement store's (`dynamodb/movements/store.ts`, §23).
 */
export function createEventStore(options: StoreOptions): EventLedgerPort {
  const { client, tableName } = options;
  const retry = retryPolicy(options);
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
      // A waiver moves no money: a refusal under its (source, id) was another event's.
      return answer.kind === 'refused_before' ? { kind: 'id_conflict' } : answer;
    },

    /**
     * A chunk of one account's credits and debits (docs/contract.md §20). Any inbox, account or
     * paymentId condition that fails means one record is a duplicate, an id conflict or a
     * rejection: `refused`, and the records are applied one by one, each judged on its own.
     */
    async applyEventRun(run): Promise<EventRunResult> {
      const parts = composeMoney(tableName, runPlan(tableName, run));
      // A write with a sequence item was built from a read of it (its version). Cancelled for
      // contention, it is not retried as is: whoever holds the account is likely moving that
      // sequence too. The service reads again and retries instead (`sequence_moved`).
      const readFirst = run.sequences.length > 0;
      const outcome = await commitMoney(
        client,
        parts,
        retry,
        readFirst ? { contention: 'return' } : {},
      );
      if (outcome.kind === 'committed') return outcome;
      if (outcome.kind === 'contended') return { kind: 'sequence_moved' };
      const { accounts, payments, failed } = outcome.cancellation;
      if (failed.has('inbox') || accounts.size > 0 || payments.size > 0) return { kind: 'refused' };
      if (failed.has('sequence')) return { kind: 'sequence_moved' };
      throw unexpectedFailure(failed);
    },

    async seenInbox(claim) {
      const scope = inboxScopeId(claim.source, claim.id, claim.namespace);
      const item = await getItem(client, tableName, keys.inbox(scope));
      if (!item || Number(item[TTL_ATTRIBUTE]) < claim.nowSeconds) return undefined;
      return seenInboxItem(item, claim);
    },

    async recordRefusal(claim, refusal) {
      const part = {
        role: 'inbox',
        item: inboxItem(tableName, claim, undefined, refusal),
        decisive: true,
      };
      const outcome = await transactWithRetry(client, [part], retry);
      if (outcome.kind === 'committed') return 'recorded';
      const seen = outcome.failed.get('inbox');
      if (!outcome.failed.has('inbox')) throw unexpectedFailure(outcome.failed);
      return seenInboxItem(seen ?? {}, claim);
    },

    async getAccount(accountId) {
      const item = await getItem(client, tableName, keys.account(accountId));
      return item ? toAccountRecord(item) : undefined;
    },
  };
}
