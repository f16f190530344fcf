import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import type {
  EventRunWrite,
  InboxClaim,
  SequenceWrite,
  VersionedSequence,
} from '../../domain/events/port';
import { sha256Hex } from '../../domain/idempotency/fingerprint';
import { accountChangeItem } from '../accounts/account-change';
import { newEntryItems, paymentItem } from '../accounts/entries';
import { postingChange } from '../accounts/items';
import { CLAIM_FREE } from '../idempotency/command';
import { toAttributes } from '../table/attributes';
import { keys, TTL_ATTRIBUTE } from '../table/keys';
import type { TransactPart } from '../table/transact';

/**
 * Dedup key (source, id): two producers may reuse an id (docs/contract.md §6). Callbacks use
 * (applicationId, id) in their own namespace (docs/contract.md §7).
 */
function inboxScopeId(source: string, id: string, namespace = 'event'): string {
  return sha256Hex(JSON.stringify([namespace, source, id]));
}

export function inboxItem(
  tableName: string,
  claim: InboxClaim,
  entryId?: string,
): TransactWriteItem {
  return {
    Put: {
      TableName: tableName,
      Item: toAttributes({
        ...keys.inbox(inboxScopeId(claim.source, claim.id, claim.namespace)),
        kind: 'inbox',
        namespace: claim.namespace ?? 'event',
        source: claim.source,
        eventId: claim.id,
        contentHash: claim.contentHash,
        entryId,
        [TTL_ATTRIBUTE]: claim.expiresAt,
      }),
      ConditionExpression: CLAIM_FREE,
      ExpressionAttributeNames: { '#expiresAt': TTL_ATTRIBUTE },
      ExpressionAttributeValues: toAttributes({ ':now': claim.nowSeconds }),
      // The seen record's hash tells a duplicate from an id conflict in the same round trip.
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** Optimistic write: fails when another writer moved the item since it was read. */
export function sequenceItem(
  tableName: string,
  write: SequenceWrite,
  at: string,
): TransactWriteItem {
  const expectsNew = write.expectedVersion === 0;
  return {
    Put: {
      TableName: tableName,
      Item: toAttributes({
        ...keys.eventSource(write.accountId, write.source),
        kind: 'event-source',
        source: write.source,
        lastSequence: write.next.lastSequence,
        gaps: [...write.next.gaps],
        gapsTruncated: write.next.gapsTruncated,
        version: write.expectedVersion + 1,
        updatedAt: at,
      }),
      ConditionExpression: expectsNew ? 'attribute_not_exists(pk)' : '#version = :version',
      ...(expectsNew
        ? {}
        : {
            ExpressionAttributeNames: { '#version': 'version' },
            ExpressionAttributeValues: toAttributes({ ':version': write.expectedVersion }),
          }),
    },
  };
}

export function toVersionedSequence(item: Record<string, unknown>): VersionedSequence {
  const gaps = Array.isArray(item.gaps) ? item.gaps.map(Number) : [];
  return {
    version: Number(item.version ?? 0),
    state: {
      lastSequence: Number(item.lastSequence ?? 0),
      gaps,
      gapsTruncated: item.gapsTruncated === true,
    },
  };
}

export type RunRole = 'account' | 'inbox' | 'entry' | 'pointer' | 'payment' | 'sequence';

/**
 * The items of a batched event write (docs/contract.md §20): ONE account update carrying every
 * record's change (`version` + n, the changes in `lastChanges`), then per record its inbox
 * item (decisive: a seen record settles the attempt), its entry, the entry's pointer and its
 * paymentId item, then one sequence item per source. `runs.ts` guarantees no item twice and at most 100.
 */
export function runParts(tableName: string, run: EventRunWrite): TransactPart<RunRole>[] {
  const last = run.records.at(-1)?.entry;
  if (!last) throw new Error('a batched event write has at least one record');
  const account = accountChangeItem(tableName, {
    accountId: run.accountId,
    changes: run.records.map(({ entry }) => postingChange(entry)),
    currency: run.currency,
    // Producers are trusted by IAM: no owner; the account must be open (docs/contract.md §17).
    requireOpen: true,
    requireAvailableAtLeast: run.requireAvailableAtLeast,
  });
  const parts: TransactPart<RunRole>[] = [{ role: 'account', item: account }];
  for (const { claim, entry } of run.records) {
    const [listed, pointer] = newEntryItems(tableName, entry);
    parts.push(
      { role: 'inbox', item: inboxItem(tableName, claim, entry.id), decisive: true },
      { role: 'entry', item: listed },
      { role: 'pointer', item: pointer },
    );
    const payment = paymentItem(tableName, entry);
    if (payment) parts.push({ role: 'payment', item: payment });
  }
  for (const sequence of run.sequences) {
    parts.push({ role: 'sequence', item: sequenceItem(tableName, sequence, last.createdAt) });
  }
  return parts;
}
