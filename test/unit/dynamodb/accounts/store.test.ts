import {
  type CancellationReason,
  DynamoDBClient,
  ProvisionedThroughputExceededException,
  TransactionCanceledException,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PostingEntry } from '../../../../functions/domain/accounts/model';
import type { IdempotencyClaim } from '../../../../functions/domain/idempotency/port';
import { requestOnce } from '../../../../functions/domain/movements/once';
import {
  IdempotencyKeyInUseError,
  InternalError,
  UnavailableError,
} from '../../../../functions/domain/shared/errors';
import { createLedgerStore } from '../../../../functions/dynamodb/accounts/store';
import { createMovementStore } from '../../../../functions/dynamodb/movements/store';

const ddb = mockClient(DynamoDBClient);
const sleep = vi.fn(async (_ms: number) => {});
const onRetry = vi.fn();
const options = {
  client: new DynamoDBClient({ region: 'eu-west-1' }),
  tableName: 'ledger',
  retry: { sleep, onRetry, random: () => 0.5, maxAttempts: 3 },
};
const store = createLedgerStore(options);
/** Credits and debits are the movement store's (docs/contract.md §23). */
const movements = createMovementStore(options);

const claim: IdempotencyClaim = {
  scopeId: 'scope',
  fingerprint: 'fp-1',
  expiresAt: 2000,
  nowSeconds: 1000,
  response: { statusCode: 201, body: '{"id":"e1"}' },
};
const entry: PostingEntry = {
  id: 'e1',
  accountId: 'a1',
  type: 'debit',
  amount: 50,
  currency: 'EUR',
  paymentId: 'p1',
  origin: 'http',
  createdAt: '2026-11-29T10:00:00.000Z',
  effectiveAt: '2026-11-29T10:00:00.000Z',
};
const guard = { ownerId: 'alice', currency: 'EUR', requireAvailableAtLeast: 50 };
const account = {
  pk: 'ACCOUNT#a1',
  sk: 'ACCOUNT',
  id: 'a1',
  ownerId: 'alice',
  currency: 'EUR',
  balance: 10,
  createdAt: '2026-11-29T09:00:00.000Z',
  effectiveAt: '2026-11-29T09:00:00.000Z',
  updatedAt: '2026-11-29T09:00:00.000Z',
};

/**
 * The exception DynamoDB sends, reasons indexed like the items: claim, account, entry, pointer,
 * payment.
 */
function cancelled(...reasons: CancellationReason[]) {
  return new TransactionCanceledException({
    message: 'Transaction cancelled, please refer cancellation reasons for specific reasons',
    $metadata: {},
    CancellationReasons: reasons,
  });
}
const none: CancellationReason = { Code: 'None' };
const failed = (item?: Record<string, unknown>): CancellationReason => ({
  Code: 'ConditionalCheckFailed',
  ...(item ? { Item: marshall(item) } : {}),
});

beforeEach(() => {
  ddb.reset();
  sleep.mockClear();
  onRetry.mockClear();
});

describe('a credit or debit (the movement store) builds ONE transaction', () => {
  it('writes claim, guarded balance update, entry and paymentId item with a request token', async () => {
    ddb.on(TransactWriteItemsCommand).resolves({});
    await expect(movements.post(requestOnce(claim), { entry, guard })).resolves.toEqual({
      kind: 'committed',
    });
    const input = ddb.commandCalls(TransactWriteItemsCommand)[0]?.args[0].input;
    expect(input?.ClientRequestToken).toMatch(/^[0-9a-f-]{36}$/);
    const [claimPut, update, entryPut, pointerPut, paymentPut] = input?.TransactItems ?? [];
    expect(claimPut?.Put?.ConditionExpression).toBe(
      'attribute_not_exists(pk) OR #expiresAt < :now',
    );
    expect(claimPut?.Put?.ReturnValuesOnConditionCheckFailure).toBe('ALL_OLD');
    expect(claimPut?.Put?.Item?.expiresAt).toEqual({ N: '2000' });
    // The guard draws on `spendable` (available + overdraftLimit, docs/contract.md §17); an
    // account from before overdrafts has none: then the effective available balance (§11),
    // `available`, or `balance` from before holds. All three move by the same delta.
    expect(update?.Update?.ConditionExpression).toContain(
      '(attribute_exists(#spendable) AND #spendable >= :required)',
    );
    expect(update?.Update?.ConditionExpression).toContain(
      '(attribute_exists(#available) AND #available >= :required)',
    );
    expect(update?.Update?.ConditionExpression).toContain(
      '(attribute_not_exists(#available) AND #balance >= :required)',
    );
    expect(update?.Update?.ConditionExpression).toContain('#ownerId = :ownerId');
    expect(update?.Update?.UpdateExpression).toContain(
      '#available = if_not_exists(#available, #balance) + :availableDelta',
    );
    expect(update?.Update?.UpdateExpression).toContain(
      '#spendable = if_not_exists(#spendable, if_not_exists(#available, #balance)) + :availableDelta',
    );
    expect(update?.Update?.ExpressionAttributeValues?.[':balanceDelta']).toEqual({ N: '-50' });
    expect(update?.Update?.ExpressionAttributeValues?.[':availableDelta']).toEqual({ N: '-50' });
    expect(entryPut?.Put?.Item?.sk).toEqual({ S: 'ENTRY#2026-11-29T10:00:00.000Z#e1' });
    // The id-keyed pointer reversals find the entry by (docs/contract.md §16).
    expect(pointerPut?.Put?.Item?.pk).toEqual({ S: 'ENTRY_ID#e1' });
    expect(pointerPut?.Put?.ConditionExpression).toBe('attribute_not_exists(pk)');
    expect(paymentPut?.Put?.Item?.pk).toEqual({ S: 'PAYMENT#a1#p1' });
    expect(paymentPut?.Put?.Item?.expiresAt).toBeUndefined();
  });
});

describe('cancellation reasons become facts', () => {
  it.each([
    {
      name: 'an unexpired claim -> claimed with the stored record',
      reasons: [
        failed({ fingerprint: 'fp-0', statusCode: 409, body: '{"x":1}', expiresAt: 1500 }),
        none,
        none,
        none,
        none,
      ],
      expected: {
        kind: 'claimed',
        record: { fingerprint: 'fp-0', statusCode: 409, body: '{"x":1}', expiresAt: 1500 },
      },
    },
    {
      name: 'a missing account -> account_rejected without state',
      reasons: [none, failed(), none, none, none],
      expected: { kind: 'account_rejected', account: undefined },
    },
    {
      name: 'a guarded account -> account_rejected with its state',
      reasons: [none, failed(account), none, none, failed({ pk: 'PAYMENT#a1#p1' })],
      expected: {
        kind: 'account_rejected',
        account: expect.objectContaining({ ownerId: 'alice', balance: 10, currency: 'EUR' }),
      },
    },
    {
      name: 'a used paymentId -> payment_id_taken',
      reasons: [none, none, none, none, failed({ pk: 'PAYMENT#a1#p1' })],
      expected: { kind: 'payment_id_taken' },
    },
  ])('$name', async ({ reasons, expected }) => {
    ddb.on(TransactWriteItemsCommand).rejects(cancelled(...reasons));
    await expect(movements.post(requestOnce(claim), { entry, guard })).resolves.toEqual(expected);
  });

  it('records a rejection with one conditional put that can lose to a committed claim', async () => {
    ddb
      .on(TransactWriteItemsCommand)
      .resolvesOnce({})
      .rejectsOnce(
        cancelled(failed({ fingerprint: 'fp-1', statusCode: 201, body: '{}', expiresAt: 9 })),
      );
    await expect(store.recordResponse(claim)).resolves.toEqual({ kind: 'recorded' });
    await expect(store.recordResponse(claim)).resolves.toMatchObject({ kind: 'claimed' });
    const items = ddb.commandCalls(TransactWriteItemsCommand)[0]?.args[0].input.TransactItems;
    expect(items).toHaveLength(1);
  });

  it('treats cancellation without a failed condition as internal', async () => {
    ddb.on(TransactWriteItemsCommand).rejects(cancelled({ Code: 'ValidationError' }, none));
    await expect(movements.post(requestOnce(claim), { entry, guard })).rejects.toBeInstanceOf(
      InternalError,
    );
  });
});

describe('contention and throttling', () => {
  it('retries a TransactionConflict with jittered backoff and a fresh token per attempt', async () => {
    ddb
      .on(TransactWriteItemsCommand)
      .rejectsOnce(cancelled(none, { Code: 'TransactionConflict' }, none, none))
      .resolves({});
    // A store of its own: the file's store has timed the earlier tests' commits.
    const fresh = createMovementStore(options);
    await expect(fresh.post(requestOnce(claim), { entry, guard })).resolves.toEqual({
      kind: 'committed',
    });
    const calls = ddb.commandCalls(TransactWriteItemsCommand);
    expect(calls).toHaveLength(2);
    expect(calls[0]?.args[0].input.ClientRequestToken).not.toBe(
      calls[1]?.args[0].input.ClientRequestToken,
    );
    // A held item: random 0.5 centres the pause on the first bound, the 5 ms floor (no commit
    // timed yet).
    expect(sleep).toHaveBeenCalledWith(5);
    expect(onRetry).toHaveBeenCalledWith('TransactionConflict');
  });

  it('replays at once when the claim failed, even if another item conflicted', async () => {
    const stored = { fingerprint: 'fp-1', statusCode: 201, body: '{"id":"e0"}', expiresAt: 1500 };
    ddb
      .on(TransactWriteItemsCommand)
      .rejects(cancelled(failed(stored), { Code: 'TransactionConflict' }, none, none));
    await expect(movements.post(requestOnce(claim), { entry, guard })).resolves.toEqual({
      kind: 'claimed',
      record: stored,
    });
    expect(ddb.commandCalls(TransactWriteItemsCommand)).toHaveLength(1);
  });

  it('answers idempotency_key_in_use when the claim stays contended', async () => {
    ddb
      .on(TransactWriteItemsCommand)
      .rejects(cancelled({ Code: 'TransactionConflict' }, none, none, none));
    const error = await movements
      .post(requestOnce(claim), { entry, guard })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdempotencyKeyInUseError);
    expect(error).toMatchObject({ code: 'idempotency_key_in_use' });
    expect(ddb.commandCalls(TransactWriteItemsCommand)).toHaveLength(3);
    expect((error as Error).cause).toBeInstanceOf(TransactionCanceledException);
  });

  it.each([
    ['a contended account', cancelled(none, { Code: 'TransactionConflict' }, none, none)],
    ['throttled items', cancelled(none, { Code: 'ThrottlingError' }, none, none)],
    [
      'a throttled table',
      new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} }),
    ],
  ])('answers 503 for %s after retries', async (_name, error) => {
    ddb.on(TransactWriteItemsCommand).rejects(error);
    const caught = await movements
      .post(requestOnce(claim), { entry, guard })
      .catch((e: unknown) => e);
    expect(caught).toBeInstanceOf(UnavailableError);
    expect(caught).toMatchObject({ code: 'unavailable' });
  });

  it('maps an unknown SDK error to internal, keeping it only as the cause', async () => {
    const sdkError = Object.assign(new Error('Requested resource not found: Table: ledger'), {
      name: 'ResourceNotFoundException',
      $fault: 'client',
    });
    ddb.on(TransactWriteItemsCommand).rejects(sdkError);
    const caught = await movements
      .post(requestOnce(claim), { entry, guard })
      .catch((e: unknown) => e);
    expect(caught).toBeInstanceOf(InternalError);
    expect((caught as Error).message).not.toContain('ledger');
    expect((caught as Error).cause).toBe(sdkError);
  });
});
