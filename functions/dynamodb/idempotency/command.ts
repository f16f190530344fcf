import type { DynamoDBClient, TransactWriteItem } from '@aws-sdk/client-dynamodb';
import type { WriteResult } from '../../domain/accounts/port';
import type { IdempotencyRecord } from '../../domain/idempotency/model';
import type { ClaimKey, IdempotencyClaim, RecordResult } from '../../domain/idempotency/port';
import { toAccountRecord } from '../accounts/items';
import { toAttributes } from '../table/attributes';
import { keys, TTL_ATTRIBUTE } from '../table/keys';
import { getItem } from '../table/reads';
import { type RetryPolicy, type TransactPart, transactWithRetry } from '../table/transact';

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
      }),
      ConditionExpression: CLAIM_FREE,
      ExpressionAttributeNames: { '#expiresAt': TTL_ATTRIBUTE },
      ExpressionAttributeValues: toAttributes({ ':now': claim.nowSeconds }),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

export function toIdempotencyRecord(item: Record<string, unknown>): IdempotencyRecord {
  return {
    fingerprint: String(item.fingerprint),
    statusCode: Number(item.statusCode),
    body: String(item.body),
    expiresAt: Number(item[TTL_ATTRIBUTE]),
  };
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
 * The facts of a cancelled command in precedence order: an existing claim (replay or reuse),
 * then the account guard, then the paymentId. Undefined when none of these failed.
 */
function commandFailure(
  failed: ReadonlyMap<string, Record<string, unknown> | undefined>,
): WriteResult | undefined {
  const claim = claimedFailure(failed);
  if (claim) return claim;
  if (failed.has('account')) {
    const account = failed.get('account');
    return { kind: 'account_rejected', account: account ? toAccountRecord(account) : undefined };
  }
  if (failed.has('payment')) return { kind: 'payment_id_taken' };
  return undefined;
}

/**
 * Runs a command's transaction and reports its facts: committed, or the failure
 * `commandFailure` names, or what `otherFailure` makes of the rest (e.g. a moved task).
 */
export async function writeCommand<Role extends string, Other = never>(
  client: DynamoDBClient,
  parts: readonly TransactPart<Role>[],
  retry: RetryPolicy,
  otherFailure: (
    failed: ReadonlyMap<Role, Record<string, unknown> | undefined>,
  ) => Other | undefined = () => undefined,
): Promise<WriteResult | Other> {
  const outcome = await transactWithRetry(client, parts, retry);
  if (outcome.kind === 'committed') return outcome;
  const failure = commandFailure(outcome.failed) ?? otherFailure(outcome.failed);
  if (failure === undefined) throw unexpectedFailure(outcome.failed);
  return failure;
}

/**
 * THE claim-only transaction every store records a rejection with (docs/contract.md §4): the
 * response is stored unless a claim committed meanwhile, which is then answered instead.
 */
export async function recordClaimOnly(
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

export function unexpectedFailure(failed: ReadonlyMap<string, unknown>): Error {
  return new Error(`unexpected failed condition on ${[...failed.keys()].join(', ')}`);
}
