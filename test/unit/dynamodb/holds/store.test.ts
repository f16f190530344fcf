import { DynamoDBClient, QueryCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { createHoldStore, MAX_LISTING_QUERIES } from '../../../../functions/dynamodb/holds/store';

/** docs/contract.md §11: a filtered hold listing reads a bounded number of pages per request. */

const ddb = mockClient(DynamoDBClient);
const store = createHoldStore({
  client: new DynamoDBClient({ region: 'eu-west-1' }),
  tableName: 'ledger',
});

const storedHold = (n: number, status: string) =>
  marshall({
    pk: 'ACCOUNT#a',
    sk: `HOLD#2026-12-01T10:00:${String(n).padStart(2, '0')}.000Z#h${n}`,
    id: `h${n}`,
    accountId: 'a',
    ownerId: 'alice',
    amount: 10,
    currency: 'EUR',
    status,
    capturedAmount: 0,
    holdExpiresAt: '2026-12-02T00:00:00.000Z',
    createdAt: '2026-12-01T10:00:00.000Z',
    updatedAt: '2026-12-01T10:00:00.000Z',
  });

beforeEach(() => ddb.reset());

describe('hold store: listHolds', () => {
  it('stops after its query budget with a cursor when the filter keeps matching nothing', async () => {
    let n = 0;
    ddb.on(QueryCommand).callsFake(async () => {
      n += 1;
      return { Items: [storedHold(n, 'voided')], LastEvaluatedKey: storedHold(n, 'voided') };
    });
    const page = await store.listHolds('a', 5, undefined, (hold) => hold.status === 'captured');
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(MAX_LISTING_QUERIES);
    expect(page.items).toEqual([]);
    expect(page.nextCursor).not.toBeNull();
  });

  it('refuses to read an unknown stored status as active', async () => {
    ddb.on(QueryCommand).resolves({ Items: [storedHold(1, 'bogus')] });
    await expect(store.listHolds('a', 5, undefined, () => true)).rejects.toThrow();
  });
});
