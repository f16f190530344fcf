import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { sha256Hex } from '../../domain/idempotency/fingerprint';
import type { InboxClaim } from '../../domain/idempotency/port';
import { toAttributes } from '../table/attributes';
import { keys, TTL_ATTRIBUTE } from '../table/keys';
import { CLAIM_FREE } from './command';

/**
 * Dedup key (source, id): two producers may reuse an id (docs/contract.md §6). Callbacks use
 * (applicationId, id) in their own namespace (docs/contract.md §7).
 */
export function inboxScopeId(source: string, id: string, namespace = 'event'): string {
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
