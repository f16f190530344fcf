import type {
  EventLedgerPort,
  EventRunResult,
  EventTransferResult,
  EventWriteResult,
  InboxClaim,
  SequenceWrite,
  WaiverWriteResult,
} from '../../domain/events/port';
import { sameInboxContent } from '../../domain/idempotency/fingerprint';
import { postingItems, toAccountRecord } from '../accounts/items';
import { legsRejection } from '../accounts/movement';
import { unexpectedFailure } from '../idempotency/command';
import { ledgerTransactionParts } from '../ledger-transactions/items';
import { keys } from '../table/keys';
import { getItem } from '../table/reads';
import {
  retryPolicy,
  type StoreOptions,
  type TransactPart,
  transactWithRetry,
} from '../table/transact';
import { transferParts } from '../transfers/items';
import { inboxItem, runParts, sequenceItem, toVersionedSequence } from './items';

type Role = 'inbox' | 'account' | 'entry' | 'pointer' | 'payment' | 'sequence';

/** (source, id) was claimed before: a duplicate if the content is the same, else a conflict. */
function seenBefore(
  inbox: Record<string, unknown> | undefined,
  claim: InboxClaim,
): { kind: 'duplicate' } | { kind: 'id_conflict' } {
  return sameInboxContent(inbox?.contentHash, claim.contentHash)
    ? { kind: 'duplicate' }
    : { kind: 'id_conflict' };
}

/**
 * DynamoDB adapter for ledger events: inbox, balance, entry, paymentId and sequence in ONE
 * transaction; a transfer or ledger transaction writes all its legs in it (docs/contract.md §16).
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

    async applyWaiver(claim, sequence): Promise<WaiverWriteResult> {
      const parts: TransactPart<'inbox' | 'sequence'>[] = [
        { role: 'inbox', item: inboxItem(tableName, claim), decisive: true },
      ];
      if (sequence) {
        const at = new Date(claim.nowSeconds * 1000).toISOString();
        parts.push({ role: 'sequence', item: sequenceItem(tableName, sequence, at) });
      }
      const outcome = await transactWithRetry(client, parts, retry);
      if (outcome.kind === 'committed') return outcome;
      const { failed } = outcome;
      if (failed.has('inbox')) return seenBefore(failed.get('inbox'), claim);
      if (failed.has('sequence')) return { kind: 'sequence_moved' };
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
      return applyMovement(claim, transferParts(tableName, write), out.id, out.createdAt, sequence);
    },

    async applyLedgerTransaction(claim, write, sequence): Promise<EventTransferResult> {
      const parts = ledgerTransactionParts(tableName, write);
      const { record } = write;
      const first = write.legs[0]?.entry.id ?? record.id;
      return applyMovement(claim, parts, first, record.createdAt, sequence);
    },
  };

  /** The inbox, a movement's parts and the sequence in ONE transaction (transfers, ledger transactions). */
  async function applyMovement(
    claim: InboxClaim,
    movement: TransactPart<string>[],
    entryId: string,
    at: string,
    sequence: SequenceWrite | undefined,
  ): Promise<EventTransferResult> {
    const parts: TransactPart<string>[] = [
      { role: 'inbox', item: inboxItem(tableName, claim, entryId), decisive: true },
      ...movement,
    ];
    if (sequence) parts.push({ role: 'sequence', item: sequenceItem(tableName, sequence, at) });
    const outcome = await send(parts, sequence !== undefined);
    if (outcome.kind === 'committed') return outcome;
    if (outcome.kind === 'contended') return { kind: 'sequence_moved' };
    const { failed } = outcome;
    if (failed.has('inbox')) return seenBefore(failed.get('inbox'), claim);
    if (failed.has('sequence')) return { kind: 'sequence_moved' };
    const rejection = legsRejection(failed);
    if (rejection) return rejection;
    throw unexpectedFailure(failed);
  }
}
