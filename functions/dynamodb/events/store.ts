import type {
  EventLedgerPort,
  EventRunResult,
  EventTransferResult,
  EventWriteResult,
  InboxClaim,
} from '../../domain/events/port';
import { sameInboxContent } from '../../domain/idempotency/fingerprint';
import { postingItems, toAccountRecord } from '../accounts/items';
import { unexpectedFailure } from '../idempotency/command';
import { keys } from '../table/keys';
import { getItem } from '../table/reads';
import {
  retryPolicy,
  type StoreOptions,
  type TransactPart,
  transactWithRetry,
} from '../table/transact';
import { type TransferRole, transferParts, transferRejection } from '../transfers/items';
import { inboxItem, runParts, sequenceItem, toVersionedSequence } from './items';

type Role = 'inbox' | 'account' | 'entry' | 'payment' | 'sequence';

/** (source, id) was claimed before: a duplicate if the content is the same, else a conflict. */
function seenBefore(
  inbox: Record<string, unknown> | undefined,
  claim: InboxClaim,
): { kind: 'duplicate' } | { kind: 'id_conflict' } {
  return sameInboxContent(inbox?.contentHash, claim.contentHash)
    ? { kind: 'duplicate' }
    : { kind: 'id_conflict' };
}

/** DynamoDB adapter for ledger events: inbox, balance, entry, paymentId and sequence in ONE transaction. */
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

    async applyEvent(claim, entry, guard, sequence): Promise<EventWriteResult> {
      const parts: TransactPart<Role>[] = [
        { role: 'inbox', item: inboxItem(tableName, claim, entry.id), decisive: true },
        ...postingItems(tableName, entry, guard),
      ];
      if (sequence) {
        parts.push({ role: 'sequence', item: sequenceItem(tableName, sequence, entry.createdAt) });
      }
      const outcome = await send(parts, sequence !== undefined);
      if (outcome.kind === 'committed') return outcome;
      if (outcome.kind === 'contended') return { kind: 'sequence_moved' };
      const { failed } = outcome;
      // A duplicate wins over everything: its effect already happened.
      if (failed.has('inbox')) return seenBefore(failed.get('inbox'), claim);
      if (failed.has('sequence')) return { kind: 'sequence_moved' };
      if (failed.has('account')) {
        const account = failed.get('account');
        return {
          kind: 'account_rejected',
          account: account ? toAccountRecord(account) : undefined,
        };
      }
      if (failed.has('payment')) return { kind: 'payment_id_taken' };
      throw unexpectedFailure(failed);
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

    async getAccount(accountId) {
      const item = await getItem(client, tableName, keys.account(accountId));
      return item ? toAccountRecord(item) : undefined;
    },

    async applyTransfer(claim, write, sequence): Promise<EventTransferResult> {
      const out = write.legs[0];
      const parts: TransactPart<TransferRole | 'inbox' | 'sequence'>[] = [
        { role: 'inbox', item: inboxItem(tableName, claim, out.id), decisive: true },
        ...transferParts(tableName, write),
      ];
      if (sequence) {
        parts.push({ role: 'sequence', item: sequenceItem(tableName, sequence, out.createdAt) });
      }
      const outcome = await send(parts, sequence !== undefined);
      if (outcome.kind === 'committed') return outcome;
      if (outcome.kind === 'contended') return { kind: 'sequence_moved' };
      const { failed } = outcome;
      if (failed.has('inbox')) return seenBefore(failed.get('inbox'), claim);
      if (failed.has('sequence')) return { kind: 'sequence_moved' };
      const rejection = transferRejection(failed);
      if (rejection) return rejection;
      throw unexpectedFailure(failed);
    },
  };
}
