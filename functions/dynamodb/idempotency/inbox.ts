import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { sameInboxContent, sha256Hex } from '../../domain/idempotency/fingerprint';
import type { InboxClaim, RecordedRefusal, SeenOutcome } from '../../domain/idempotency/port';
import type { ErrorCode } from '../../domain/shared/errors';
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

/**
 * A redriven dead letter (`claim.redrive`) may also take the place of a refusal recorded under
 * its (source, id) — once per redriven message: a refusal it records itself names it.
 */
const REFUSAL_REDRIVEN =
  'attribute_exists(refusedCode) AND (attribute_not_exists(redrive) OR redrive <> :redrive)';

/**
 * The inbox item of a claim: the entry its effect wrote, or the permanent refusal it got
 * (docs/contract.md §6: a refusal is final like a `409` under an HTTP key).
 */
export function inboxItem(
  tableName: string,
  claim: InboxClaim,
  entryId?: string,
  refusal?: RecordedRefusal,
): TransactWriteItem {
  const redrive = claim.redrive;
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
        refusedCode: refusal?.code,
        refusedDetail: refusal?.detail,
        redrive,
        [TTL_ATTRIBUTE]: claim.expiresAt,
      }),
      ConditionExpression:
        redrive === undefined ? CLAIM_FREE : `${CLAIM_FREE} OR (${REFUSAL_REDRIVEN})`,
      ExpressionAttributeNames: { '#expiresAt': TTL_ATTRIBUTE },
      ExpressionAttributeValues: toAttributes({
        ':now': claim.nowSeconds,
        ...(redrive === undefined ? {} : { ':redrive': redrive }),
      }),
      // The seen record's hash tells a duplicate from an id conflict in the same round trip.
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/**
 * What a live inbox item says to a claim of its (source, id): other content → an id conflict;
 * a recorded refusal → that refusal, replayed; else the effect happened → a duplicate.
 */
export function seenInboxItem(item: Record<string, unknown>, claim: InboxClaim): SeenOutcome {
  if (!sameInboxContent(item.contentHash, claim.contentHash)) return { kind: 'id_conflict' };
  if (typeof item.refusedCode !== 'string') return { kind: 'duplicate' };
  const refusal = { code: item.refusedCode as ErrorCode, detail: String(item.refusedDetail ?? '') };
  return { kind: 'refused_before', refusal };
}
