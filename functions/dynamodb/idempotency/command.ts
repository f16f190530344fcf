import type { DynamoDBClient, TransactWriteItem } from '@aws-sdk/client-dynamodb';
import type { IdempotencyRecord } from '../../domain/idempotency/model';
import type {
  ClaimKey,
  IdempotencyClaim,
  RecordResult,
  ResponseRecorder,
} from '../../domain/idempotency/port';
import { toAttributes } from '../table/attributes';
import { keys, TTL_ATTRIBUTE } from '../table/keys';
import { getItem } from '../table/reads';
import { type RetryPolicy, transactWithRetry } from '../table/transact';

/** Builders for the items each transaction writes; conditions are named after what they guard. */

/** The claim is free when no record exists or the stored one has expired (TTL deletes lazily). */
export const CLAIM_FREE = `attribute_not_exists(pk) OR #expiresAt < :now`;

export function claimItem(tableName: string, claim: IdempotencyClaim): TransactWriteItem {
  return {
    Put: {
      TableName: tableName,
      Item: toAttributes({
        ...keys.idempotency(claim.scopeId),
        fingerprint: claim.fingerprint,
        statusCode: claim.response.statusCode,
        body: claim.response.body,
        [TTL_ATTRIBUTE]: claim.expiresAt,
        ...(claim.writer === undefined ? {} : { writer: claim.writer }),
      }),
      ConditionExpression: CLAIM_FREE,
      ExpressionAttributeNames: { '#expiresAt': TTL_ATTRIBUTE },
      ExpressionAttributeValues: toAttributes({ ':now': claim.nowSeconds }),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

export function toIdempotencyRecord(item: Record<string, unknown>): IdempotencyRecord {
  const record = {
    fingerprint: String(item.fingerprint),
    statusCode: Number(item.statusCode),
    body: String(item.body),
    expiresAt: Number(item[TTL_ATTRIBUTE]),
  };
  return typeof item.writer === 'string' ? { ...record, writer: item.writer } : record;
}

/**
 * The record stored under a key, strongly consistent; undefined when there is none or it
 * expired before `key.nowSeconds` (the same rule as {@link CLAIM_FREE}: TTL deletes lazily).
 */
export async function findClaimRecord(
  client: DynamoDBClient,
  tableName: string,
  key: ClaimKey,
): Promise<IdempotencyRecord | undefined> {
  const item = await getItem(client, tableName, keys.idempotency(key.scopeId));
  if (!item) return undefined;
  const record = toIdempotencyRecord(item);
  return record.expiresAt < key.nowSeconds ? undefined : record;
}

/** The stored idempotency record when the claim is what cancelled a command's transaction. */
export function claimedFailure(
  failed: ReadonlyMap<string, Record<string, unknown> | undefined>,
): { kind: 'claimed'; record: IdempotencyRecord } | undefined {
  const record = failed.get('claim');
  return record ? { kind: 'claimed', record: toIdempotencyRecord(record) } : undefined;
}

/**
 * THE claim-only transaction every store records a rejection with (docs/contract.md §4): the
 * response is stored unless a claim committed meanwhile, which is then answered instead.
 */
async function recordClaimOnly(
  client: DynamoDBClient,
  tableName: string,
  retry: RetryPolicy,
  claim: IdempotencyClaim,
): Promise<RecordResult> {
  const parts = [{ role: 'claim', item: claimItem(tableName, claim), decisive: true }];
  const outcome = await transactWithRetry(client, parts, retry);
  if (outcome.kind === 'committed') return { kind: 'recorded' };
  const claimed = claimedFailure(outcome.failed);
  if (claimed) return claimed;
  throw unexpectedFailure(outcome.failed);
}

/** Every store's `ResponseRecorder`: the one claim-only write and the claim's read. */
export const claimRecorder = (
  client: DynamoDBClient,
  tableName: string,
  retry: RetryPolicy,
): ResponseRecorder => ({
  recordResponse: (claim) => recordClaimOnly(client, tableName, retry, claim),
  findRecord: (key) => findClaimRecord(client, tableName, key),
});

export function unexpectedFailure(failed: ReadonlyMap<string, unknown>): Error {
  return new Error(`unexpected failed condition on ${[...failed.keys()].join(', ')}`);
}
