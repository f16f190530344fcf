import {
  type CancellationReason,
  ConditionalCheckFailedException,
  DeleteItemCommand,
  DynamoDBClient,
  ProvisionedThroughputExceededException,
  PutItemCommand,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PostingEntry } from '../../../../functions/domain/accounts/model';
import type { PlannedMovement } from '../../../../functions/domain/batches/model';
import { postingGuard } from '../../../../functions/domain/movements/legs';
import { UnavailableError } from '../../../../functions/domain/shared/errors';
import { BATCH_LEASE_KIND, createBatchStore } from '../../../../functions/dynamodb/batches/store';
import { keys } from '../../../../functions/dynamodb/table/keys';
import { cancelled, conditionFailed, none } from '../../../support/sdk/cancellation';

/**
 * docs/contract.md §25: a batch's shared write is ONE transaction per chunk, retried as every
 * store retries contention, and its cancellation read back by movement.
 */
const ddb = mockClient(DynamoDBClient);
const sleep = vi.fn(async (_ms: number) => {});
const onRetry = vi.fn();
const store = createBatchStore({
  client: new DynamoDBClient({ region: 'eu-west-1' }),
  tableName: 'ledger',
  retry: { sleep, onRetry, random: () => 0.5, maxAttempts: 3 },
});

const at = '2026-12-01T10:00:00.000Z';
function creditOf(id: string, amount: number): PlannedMovement {
  const entry: PostingEntry = {
    id,
    accountId: 'a1',
    type: 'credit',
    amount,
    currency: 'EUR',
    origin: 'http',
    createdAt: at,
    effectiveAt: at,
  };
  return {
    claim: {
      scopeId: `scope-${id}`,
      fingerprint: `fp-${id}`,
      expiresAt: 2000,
      nowSeconds: 1000,
      response: { statusCode: 201, body: `{"id":"${id}"}` },
    },
    legs: [{ entry, guard: postingGuard(entry, 'alice') }],
  };
}
const chunk = [creditOf('e1', 10), creditOf('e2', 20)];

/** Reasons follow the items: the account's one update, then per credit claim, entry, pointer. */
const conflict: CancellationReason = { Code: 'TransactionConflict' };
const tokens = () =>
  ddb.commandCalls(TransactWriteItemsCommand).map((c) => c.args[0].input.ClientRequestToken);

beforeEach(() => {
  ddb.reset();
  sleep.mockClear();
  onRetry.mockClear();
});

describe('a coalesced chunk of one account', () => {
  it('is ONE transaction with ONE update of the account carrying every credit', async () => {
    ddb.on(TransactWriteItemsCommand).resolves({});
    await expect(store.writeMovements(chunk, {})).resolves.toEqual({ kind: 'committed' });
    const items = ddb.commandCalls(TransactWriteItemsCommand)[0]?.args[0].input.TransactItems;
    expect(items).toHaveLength(1 + 2 * 3);
    expect(items?.filter((item) => item.Update)).toHaveLength(1);
    expect(items?.[0]?.Update?.ExpressionAttributeValues?.[':n']).toEqual({ N: '2' });
  });

  it('retries a TransactionConflict on the account with a fresh token, then commits', async () => {
    ddb
      .on(TransactWriteItemsCommand)
      .rejectsOnce(cancelled(conflict, none, none, none, none, none, none))
      .resolves({});
    await expect(store.writeMovements(chunk, {})).resolves.toEqual({ kind: 'committed' });
    const [first, second] = tokens();
    expect(second).not.toBe(first);
    expect(onRetry).toHaveBeenCalledWith('TransactionConflict');
    expect(sleep).toHaveBeenCalledTimes(1);
  });

  it('answers unavailable once the conflicts outlast its attempts: the batch falls back', async () => {
    ddb
      .on(TransactWriteItemsCommand)
      .rejects(cancelled(conflict, none, none, none, none, none, none));
    await expect(store.writeMovements(chunk, {})).rejects.toBeInstanceOf(UnavailableError);
    expect(new Set(tokens()).size).toBe(3);
  });

  it('reads a refusal back by movement: a held claim, the account as it stood', async () => {
    const record = { fingerprint: 'fp-other', statusCode: 201, body: '{}', expiresAt: 2000 };
    const account = { id: 'a1', ownerId: 'alice', currency: 'EUR', balance: 5, status: 'closed' };
    ddb
      .on(TransactWriteItemsCommand)
      .rejects(
        cancelled(conditionFailed(account), none, none, none, conditionFailed(record), none, none),
      );
    const refused = await store.writeMovements(chunk, {});
    if (refused.kind !== 'refused') throw new Error('expected a refusal');
    expect([...refused.claimed.keys()]).toEqual([1]);
    expect(refused.claimed.get(1)).toMatchObject({ fingerprint: 'fp-other', statusCode: 201 });
    expect(refused.accounts.get('a1')).toMatchObject({ balance: 5, status: 'closed' });
    expect(refused.payments.size).toBe(0);
  });
});

describe('the lease of an independent batch’s key', () => {
  const lease = { scopeId: 'scope-b', token: 'token-1', expiresAtMs: 1_020_500 };
  const checkFailed = (item?: Record<string, unknown>) =>
    new ConditionalCheckFailedException({
      message: 'The conditional request failed',
      $metadata: {},
      ...(item ? { Item: marshall(item) } : {}),
    });

  it('is ONE conditional put: no lease of the scope, or one expired by now', async () => {
    ddb.on(PutItemCommand).resolves({});
    await expect(store.takeLease(lease, 1_000_000)).resolves.toEqual({ kind: 'taken' });
    const input = ddb.commandCalls(PutItemCommand)[0]?.args[0].input;
    expect(unmarshall(input?.Item ?? {})).toEqual({
      ...keys.batchLease('scope-b'),
      kind: BATCH_LEASE_KIND,
      token: 'token-1',
      expiresAtMs: 1_020_500,
      // TTL in epoch seconds, rounded up: never before the lease itself expires.
      expiresAt: 1021,
    });
    expect(input?.ConditionExpression).toBe('attribute_not_exists(pk) OR #expiresAtMs <= :now');
    expect(input?.ExpressionAttributeNames).toEqual({ '#expiresAtMs': 'expiresAtMs' });
    expect(input?.ExpressionAttributeValues).toEqual({ ':now': { N: '1000000' } });
  });

  it('is held, until that lease expires, when the condition fails on another copy’s', async () => {
    const other = { ...lease, token: 'token-2', expiresAtMs: 1_004_200 };
    ddb.on(PutItemCommand).rejects(checkFailed(other));
    await expect(store.takeLease(lease, 1_000_000)).resolves.toEqual({
      kind: 'held',
      expiresAtMs: 1_004_200,
    });
    const input = ddb.commandCalls(PutItemCommand)[0]?.args[0].input;
    expect(input?.ReturnValuesOnConditionCheckFailure).toBe('ALL_OLD');
  });

  it('is taken when the condition fails on its own token: the SDK retried a lost answer', async () => {
    ddb.on(PutItemCommand).rejects(checkFailed(lease));
    await expect(store.takeLease(lease, 1_000_000)).resolves.toEqual({ kind: 'taken' });
  });

  it('answers unavailable when the table throttles the put', async () => {
    ddb
      .on(PutItemCommand)
      .rejects(new ProvisionedThroughputExceededException({ message: 'slow', $metadata: {} }));
    await expect(store.takeLease(lease, 1_000_000)).rejects.toBeInstanceOf(UnavailableError);
  });

  it('is released by ONE delete conditioned on its token', async () => {
    ddb.on(DeleteItemCommand).resolves({});
    await store.releaseLease(lease);
    const input = ddb.commandCalls(DeleteItemCommand)[0]?.args[0].input;
    expect(unmarshall(input?.Key ?? {})).toEqual(keys.batchLease('scope-b'));
    expect(input?.ConditionExpression).toBe('#token = :token');
    expect(input?.ExpressionAttributeValues).toEqual({ ':token': { S: 'token-1' } });
  });

  it('leaves a lease another copy took over after ours expired', async () => {
    ddb.on(DeleteItemCommand).rejects(checkFailed());
    await expect(store.releaseLease(lease)).resolves.toBeUndefined();
    expect(ddb.commandCalls(DeleteItemCommand)).toHaveLength(1);
  });
});
