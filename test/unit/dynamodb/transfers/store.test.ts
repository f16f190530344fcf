import { DynamoDBClient, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { TransferRecord } from '../../../../functions/domain/accounts/transfer-record';
import type { IdempotencyClaim } from '../../../../functions/domain/idempotency/port';
import { requestOnce } from '../../../../functions/domain/movements/once';
import { transferLegs } from '../../../../functions/domain/movements/transfer';
import { createMovementStore } from '../../../../functions/dynamodb/movements/store';
import { cancelled, conditionFailed as failed, none } from '../../../support/sdk/cancellation';

/** docs/contract.md §10: one transaction, and cancellation reasons read as facts. */

const ddb = mockClient(DynamoDBClient);
const store = createMovementStore({
  client: new DynamoDBClient({ region: 'eu-west-1' }),
  tableName: 'ledger',
  retry: { sleep: vi.fn(async () => {}), random: () => 0.5, maxAttempts: 3 },
});

const claim: IdempotencyClaim = {
  scopeId: 'scope',
  fingerprint: 'fp-1',
  expiresAt: 2000,
  nowSeconds: 1000,
  response: { statusCode: 201, body: '{}' },
};
const transfer: TransferRecord = {
  id: 't1',
  fromAccountId: 'a',
  toAccountId: 'b',
  amount: 70,
  currency: 'EUR',
  paymentId: 'p1',
  createdAt: '2026-12-01T10:00:00.000Z',
  effectiveAt: '2026-12-01T10:00:00.000Z',
  ownerId: 'alice',
  origin: 'http',
};
const write = { transfer, legs: transferLegs(transfer, { out: 'e1', in: 'e2' }), ownerId: 'alice' };
const account = (id: string, available?: number) => ({
  pk: `ACCOUNT#${id}`,
  sk: 'ACCOUNT',
  id,
  ownerId: 'alice',
  currency: 'EUR',
  balance: 100,
  ...(available === undefined ? {} : { available }),
  createdAt: 'x',
  effectiveAt: 'x',
  updatedAt: 'x',
});

// Reasons are indexed like the items: claim, from, to, out, its pointer, in, its pointer,
// payment, transfer.
beforeEach(() => ddb.reset());

describe('transfer: ONE TransactWriteItems', () => {
  it('writes claim, guarded debit, credit, both legs, the record and the paymentId', async () => {
    ddb.on(TransactWriteItemsCommand).resolves({});
    await expect(store.transfer(requestOnce(claim), write)).resolves.toEqual({ kind: 'committed' });
    const calls = ddb.commandCalls(TransactWriteItemsCommand);
    expect(calls).toHaveLength(1);
    const items = calls[0]?.args[0].input.TransactItems ?? [];
    expect(items.map((i) => i.Put?.Item?.pk?.S ?? i.Update?.Key?.pk?.S)).toEqual([
      'IDEMPOTENCY#scope',
      'ACCOUNT#a',
      'ACCOUNT#b',
      'ACCOUNT#a',
      'ENTRY_ID#e1',
      'ACCOUNT#b',
      'ENTRY_ID#e2',
      'PAYMENT#a#p1',
      'TRANSFER#t1',
    ]);
    const [, from, to] = items;
    expect(from?.Update?.ConditionExpression).toContain('#available >= :required');
    expect(from?.Update?.ExpressionAttributeValues?.[':balanceDelta']).toEqual({ N: '-70' });
    expect(to?.Update?.ConditionExpression).not.toContain(':required');
    expect(to?.Update?.ConditionExpression).toContain('#ownerId = :ownerId');
    expect(to?.Update?.ExpressionAttributeValues?.[':availableDelta']).toEqual({ N: '70' });
  });

  it.each([
    {
      name: 'an existing claim wins over everything -> claimed',
      reasons: [
        failed({ fingerprint: 'fp-0', statusCode: 201, body: '{}', expiresAt: 1500 }),
        failed(account('a', 0)),
        none,
        none,
        none,
        none,
        none,
        failed(),
        none,
      ],
      expected: { kind: 'claimed', record: expect.objectContaining({ fingerprint: 'fp-0' }) },
    },
    {
      name: 'both accounts refused -> both sides with their state (available read as balance when absent)',
      reasons: [
        none,
        failed(account('a', 10)),
        failed(account('b')),
        none,
        none,
        none,
        none,
        none,
        none,
      ],
      expected: {
        kind: 'legs_rejected',
        legs: [
          { index: 0, account: expect.objectContaining({ available: 10 }) },
          { index: 1, account: expect.objectContaining({ balance: 100, available: 100 }) },
        ],
      },
    },
    {
      name: 'a missing destination -> legs_rejected without state',
      reasons: [none, none, failed(), none, none, none, none, none, none],
      expected: { kind: 'legs_rejected', legs: [{ index: 1, account: undefined }] },
    },
    {
      name: 'a used paymentId -> payment_id_taken',
      reasons: [none, none, none, none, none, none, none, failed(), none],
      expected: { kind: 'payment_id_taken' },
    },
  ])('$name', async ({ reasons, expected }) => {
    ddb.on(TransactWriteItemsCommand).rejects(cancelled(...reasons));
    await expect(store.transfer(requestOnce(claim), write)).resolves.toEqual(expected);
    expect(ddb.commandCalls(TransactWriteItemsCommand)).toHaveLength(1);
  });
});
