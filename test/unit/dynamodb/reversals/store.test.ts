import {
  BatchGetItemCommand,
  DynamoDBClient,
  QueryCommand,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../../../functions/domain/accounts/model';
import { entryReversible } from '../../../../functions/domain/accounts/reversal-record';
import { requestOnce } from '../../../../functions/domain/movements/once';
import { reversalLegs } from '../../../../functions/domain/movements/reversal';
import { createMovementStore } from '../../../../functions/dynamodb/movements/store';
import { createReversalStore } from '../../../../functions/dynamodb/reversals/store';
import { cancelled, conditionFailed as failed, none } from '../../../support/sdk/cancellation';
import { createdClaim, mockedStoreOptions } from '../../../support/sdk/mocked-store';

/** docs/contract.md §16: one read of the original, one guarded transaction. */
const ddb = mockClient(DynamoDBClient);
const options = mockedStoreOptions();
const store = createReversalStore(options);
/** The reversal's transaction is the movement store's (docs/contract.md §23). */
const movements = createMovementStore(options);
const claim = createdClaim;
const entry: LedgerEntry = {
  id: 'e1',
  accountId: 'a',
  type: 'credit',
  amount: 100,
  currency: 'EUR',
  origin: 'http',
  createdAt: '2026-12-01T10:00:00.000Z',
  effectiveAt: '2026-12-01T10:00:00.000Z',
};
const reversal = {
  id: 'r1',
  reversalOf: { kind: 'entry' as const, id: 'e1' },
  amount: 30,
  createdAt: '2026-12-01T11:00:00.000Z',
  effectiveAt: '2026-12-01T11:00:00.000Z',
};
const writeFor = (pointer: boolean) => {
  const original = entryReversible(entry, pointer);
  return {
    original: { location: original.location, amount: 100, reversing: 30 },
    legs: reversalLegs(original, reversal, 'alice', () => 'n1'),
  };
};

beforeEach(() => ddb.reset());

describe('reverse', () => {
  it('guards the pointer, mirrors the entry, and writes the reversal leg', async () => {
    ddb.on(TransactWriteItemsCommand).resolves({});
    await expect(movements.reverse(requestOnce(claim), writeFor(true))).resolves.toEqual({
      kind: 'committed',
    });
    const items = ddb.commandCalls(TransactWriteItemsCommand)[0]?.args[0].input.TransactItems ?? [];
    const [, guard, mirror, account, listed, pointer] = items;
    expect(guard?.Update?.Key).toEqual(marshall({ pk: 'ENTRY_ID#e1', sk: 'ENTRY_ID' }));
    expect(guard?.Update?.ConditionExpression).toBe(
      'attribute_exists(pk) AND (attribute_not_exists(#reversed) OR #reversed <= :limit)',
    );
    expect(guard?.Update?.ExpressionAttributeValues?.[':limit']).toEqual({ N: '70' });
    expect(mirror?.Update?.Key?.sk).toEqual({ S: 'ENTRY#2026-12-01T10:00:00.000Z#e1' });
    expect(mirror?.Update?.ConditionExpression).toBe('attribute_exists(pk)');
    expect(account?.Update?.ConditionExpression).toContain('#spendable >= :required');
    expect(listed?.Put?.Item).toMatchObject({
      type: { S: 'reversal' },
      direction: { S: 'debit' },
      reversalId: { S: 'r1' },
    });
    expect(pointer?.Put?.Item?.pk).toEqual({ S: 'ENTRY_ID#n1' });
    // The journal's descriptor (§15): kind reversal, reversalOf = the original's id.
    expect(unmarshall(account?.Update?.ExpressionAttributeValues ?? {})[':lastChanges']).toEqual([
      {
        kind: 'reversal',
        balanceDelta: -30,
        availableDelta: -30,
        at: '2026-12-01T11:00:00.000Z',
        entryId: 'n1',
        reversalOf: 'e1',
        effectiveAt: '2026-12-01T11:00:00.000Z',
      },
    ]);
  });

  it('guards the entry itself when it has no pointer (older entries)', async () => {
    ddb.on(TransactWriteItemsCommand).resolves({});
    await movements.reverse(requestOnce(claim), writeFor(false));
    const items = ddb.commandCalls(TransactWriteItemsCommand)[0]?.args[0].input.TransactItems ?? [];
    expect(items[1]?.Update?.Key?.sk).toEqual({ S: 'ENTRY#2026-12-01T10:00:00.000Z#e1' });
    expect(items).toHaveLength(5);
  });

  it('reports the original as it stood when its guard failed, and the refusing accounts', async () => {
    ddb
      .on(TransactWriteItemsCommand)
      .rejects(
        cancelled(
          none,
          failed({ reversedAmount: 90 }),
          none,
          failed({ id: 'a', ownerId: 'alice', currency: 'EUR', balance: 5 }),
          none,
          none,
        ),
      );
    await expect(movements.reverse(requestOnce(claim), writeFor(true))).resolves.toEqual({
      kind: 'reversal_rejected',
      legs: [{ index: 0, account: expect.objectContaining({ balance: 5 }) }],
      reversedAmount: 90,
    });
  });
});

describe('findEntry', () => {
  const account = marshall({
    pk: 'ACCOUNT#a',
    sk: 'ACCOUNT',
    id: 'a',
    ownerId: 'alice',
    currency: 'EUR',
    balance: 100,
  });

  it('reads the account and the pointer in one BatchGetItem', async () => {
    const pointer = marshall({
      pk: 'ENTRY_ID#e1',
      sk: 'ENTRY_ID',
      kind: 'entry-pointer',
      ...entry,
      reversedAmount: 10,
    });
    ddb.on(BatchGetItemCommand).resolves({ Responses: { ledger: [account, pointer] } });
    const found = await store.findEntry('a', 'e1');
    expect(found.found).toEqual({ entry: { ...entry, reversedAmount: 10 }, pointer: true });
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
  });

  it('answers an entry of another account as not found', async () => {
    const pointer = marshall({
      pk: 'ENTRY_ID#e1',
      sk: 'ENTRY_ID',
      kind: 'entry-pointer',
      ...entry,
      accountId: 'b',
    });
    ddb.on(BatchGetItemCommand).resolves({ Responses: { ledger: [account, pointer] } });
    expect((await store.findEntry('a', 'e1')).found).toBeUndefined();
  });

  it('searches at most 10 pages of an older account for an entry without a pointer', async () => {
    ddb.on(BatchGetItemCommand).resolves({ Responses: { ledger: [account] } });
    ddb.on(QueryCommand).resolves({ Items: [], LastEvaluatedKey: marshall({ pk: 'x', sk: 'y' }) });
    expect((await store.findEntry('a', 'e1')).found).toBeUndefined();
    const queries = ddb.commandCalls(QueryCommand);
    expect(queries).toHaveLength(10);
    expect(queries[0]?.args[0].input).toMatchObject({
      ScanIndexForward: false,
      ConsistentRead: true,
    });
  });
});
