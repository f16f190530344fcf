import { randomUUID } from 'node:crypto';
import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expirySettlement, type HoldRecord } from '../../../functions/domain/accounts/hold-record';
import { silentLog } from '../../../functions/domain/shared/log';
import { newHoldItems, toHoldRecord } from '../../../functions/dynamodb/holds/items';
import { createHoldStore } from '../../../functions/dynamodb/holds/store';
import { accountChangeItem } from '../../../functions/dynamodb/movements/account-change';
import { DUE_INDEX } from '../../../functions/dynamodb/table/due-index';
import { TABLE_INDEXES } from '../../../functions/dynamodb/table/indexes';
import { keys } from '../../../functions/dynamodb/table/keys';
import { composeSweeper } from '../../../functions/handlers/sweeper/compose';
import { ensureLedgerTable } from '../../../local/services/dynamodb/table';
import { testSweeper } from '../../support/config';
import { createTestTable } from '../../support/dynamo';
import { recordingMetrics } from '../../support/fakes/metrics';

let client: DynamoDBClient;
let tableName: string;
let drop: () => Promise<void>;
// DynamoDB Local's TTL sweeper runs on the real clock: start from the real time.
const T0 = new Date();
const later = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

beforeAll(async () => {
  ({ client, tableName, drop } = await createTestTable());
});
afterAll(() => drop());

/** An account as written before holds existed: a balance and no `available` attribute. */
async function legacyAccount(balance: number): Promise<string> {
  const id = randomUUID();
  const at = T0.toISOString();
  await client.send(
    new PutItemCommand({
      TableName: tableName,
      Item: marshall({
        ...keys.account(id),
        kind: 'account',
        id,
        ownerId: 'sweep-owner',
        currency: 'EUR',
        balance,
        createdAt: at,
        updatedAt: at,
      }),
    }),
  );
  return id;
}

/** Places a hold the way the holds route does: available lowered under guard, hold written. */
async function placeHold(accountId: string, amount: number, seconds: number): Promise<HoldRecord> {
  const at = T0.toISOString();
  const hold: HoldRecord = {
    id: randomUUID(),
    accountId,
    ownerId: 'sweep-owner',
    amount,
    currency: 'EUR',
    status: 'active',
    capturedAmount: 0,
    expiresAt: later(seconds).toISOString(),
    createdAt: at,
    updatedAt: at,
  };
  const change = {
    kind: 'hold_placed' as const,
    at,
    balanceDelta: 0,
    availableDelta: -amount,
    holdId: hold.id,
  };
  await client.send(
    new TransactWriteItemsCommand({
      TransactItems: [
        accountChangeItem(tableName, {
          accountId,
          changes: [change],
          requireAvailableAtLeast: amount,
        }),
        ...newHoldItems(tableName, hold),
      ],
    }),
  );
  return hold;
}

async function read(key: { pk: string; sk: string }) {
  const { Item } = await client.send(
    new GetItemCommand({ TableName: tableName, Key: marshall(key), ConsistentRead: true }),
  );
  if (!Item) throw new Error(`no item ${key.pk}`);
  return unmarshall(Item);
}

const sweeperAt = (now: Date) => {
  const metrics = recordingMetrics();
  return {
    metrics,
    sweep: composeSweeper({
      dynamo: client,
      ...testSweeper({ tableName }),
      clock: () => now,
      log: silentLog,
      metrics,
    }),
  };
};

describe('the sweeper against DynamoDB Local', () => {
  it('two sweepers at once release each expired hold exactly once', async () => {
    const accountId = await legacyAccount(10_000);
    const holds = await Promise.all(Array.from({ length: 20 }, () => placeHold(accountId, 7, 60)));
    expect((await read(keys.account(accountId))).available).toBe(10_000 - 20 * 7);

    const [a, b] = [sweeperAt(later(61)), sweeperAt(later(61))];
    const reports = await Promise.all([a.sweep(), b.sweep()]);

    const settled = reports.reduce((sum, r) => sum + (r.byKind.get('hold')?.settled ?? 0), 0);
    expect(settled).toBe(20);
    const account = await read(keys.account(accountId));
    expect(account).toMatchObject({ balance: 10_000, available: 10_000 });
    for (const hold of holds) {
      const stored = await read(keys.hold(hold.id));
      expect(stored.status).toBe('expired');
      expect(stored).not.toHaveProperty(DUE_INDEX.shardAttribute);
      expect(stored).not.toHaveProperty('expiresAt'); // never the TTL attribute
      const ref = await read(keys.holdRef(accountId, hold.createdAt, hold.id));
      expect(ref.status).toBe('expired');
    }
    // Settled items left the index: a third sweep finds nothing.
    const third = await sweeperAt(later(120)).sweep();
    expect(third.byKind.get('hold')).toMatchObject({ settled: 0, alreadyDone: 0, failed: 0 });
  });

  it('leaves a hold alone until its expiry and reports how long due holds waited', async () => {
    const accountId = await legacyAccount(500);
    const hold = await placeHold(accountId, 100, 300);
    const early = await sweeperAt(later(299)).sweep();
    expect(early.byKind.get('hold')?.settled).toBe(0);
    expect((await read(keys.hold(hold.id))).status).toBe('active');

    const { sweep, metrics } = sweeperAt(later(345));
    await sweep();
    expect((await read(keys.account(accountId))).available).toBe(500);
    expect(metrics.counts.get('SweepSettled[kind=hold]')).toBe(1);
    expect(metrics.readings.get('SweepOldestDueAgeSeconds[kind=hold]')).toEqual([45]);
  });

  it('refuses a release before expiry and a second release, changing nothing', async () => {
    const accountId = await legacyAccount(500);
    const hold = await placeHold(accountId, 100, 60);
    const store = createHoldStore({ client, tableName });
    const tooEarly = await store.releaseHold(expirySettlement(hold, later(59)));
    expect(tooEarly).toMatchObject({ kind: 'hold_changed', hold: { status: 'active' } });

    expect(await store.releaseHold(expirySettlement(hold, later(60)))).toEqual({
      kind: 'committed',
    });
    const again = await store.releaseHold(expirySettlement(hold, later(61)));
    expect(again).toMatchObject({ kind: 'hold_changed', hold: { status: 'expired' } });
    expect((await read(keys.account(accountId))).available).toBe(500);
    expect(toHoldRecord(await read(keys.hold(hold.id)))).toMatchObject({
      status: 'expired',
      expiresAt: hold.expiresAt,
    });
  });
});

describe('ensureLedgerTable', () => {
  it('adds every index of TABLE_INDEXES to a table created before them', async () => {
    const name = `ledger-old-${randomUUID()}`;
    await client.send(
      new CreateTableCommand({
        TableName: name,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'sk', AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
      }),
    );
    try {
      await ensureLedgerTable(client, name);
      const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
      const names = Table?.GlobalSecondaryIndexes?.map((i) => i.IndexName).sort();
      expect(names).toEqual(TABLE_INDEXES.map((i) => i.name).sort());
      expect(names).toContain(DUE_INDEX.name);
      // One online index at a time: each is created once the one before is built.
      expect(Table?.GlobalSecondaryIndexes?.map((i) => i.IndexStatus)).toEqual(
        TABLE_INDEXES.map(() => 'ACTIVE'),
      );
    } finally {
      await client.send(new DeleteTableCommand({ TableName: name }));
    }
  });
});
