import { randomUUID } from 'node:crypto';
import {
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HoldRecord } from '../../../functions/domain/accounts/hold-record';
import { sequenceWrite } from '../../../functions/domain/gaps/sequences';
import { gapSweep } from '../../../functions/domain/gaps/service';
import {
  EMPTY_EVENT_SOURCE,
  type EventSourceState,
} from '../../../functions/domain/gaps/source-state';
import { intakeSweep } from '../../../functions/domain/intake/sweep';
import { silentLog } from '../../../functions/domain/shared/log';
import { Sweeper } from '../../../functions/domain/sweeper/service';
import { sequenceItem } from '../../../functions/dynamodb/events/items';
import { toGapRequest, toSourceRef } from '../../../functions/dynamodb/gaps/items';
import { createGapRequestStore } from '../../../functions/dynamodb/gaps/store';
import { newHoldItems } from '../../../functions/dynamodb/holds/items';
import { createIntakeDueStore } from '../../../functions/dynamodb/intake/due';
import { accountChangeItem } from '../../../functions/dynamodb/movements/account-change';
import { createDueStore } from '../../../functions/dynamodb/sweeper/store';
import { DUE_SHARD_COUNT } from '../../../functions/dynamodb/table/due-index';
import { keys } from '../../../functions/dynamodb/table/keys';
import { sweepHandlers } from '../../../functions/handlers/sweeper/compose';
import { createTestTable } from '../../support/dynamo';

/**
 * docs/contract.md §30: an overdue gap that was already requested leaves the head of the due
 * index, so holds and execution deadlines never wait behind gaps.
 *
 * Scaling. On AWS a sweep has 40 s and a strongly consistent read takes about 5 ms: about
 * 8,000 items per shard and sweep, so 10,000 overdue gaps in one shard (or ~64,000 over the 8)
 * would stop every sweep before the first hold. Here each item the sweeper settles costs 5 ms of
 * simulated time and the budget is 250 ms (50 items a sweep, pages of 10), so 400 overdue gaps
 * (~50 a shard) stand for them: the same ratio of overdue gaps to what one sweep can read, at
 * 1/25 of the items, and no wall clock in the assertion.
 */
const REFETCH_AFTER = 300;
const OVERDUE_SOURCES = 400;
const MS_PER_ITEM = 5;
const BUDGET_MS = 250;

let client: DynamoDBClient;
let tableName: string;
let drop: () => Promise<void>;
const T0 = new Date();
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

beforeAll(async () => {
  ({ client, tableName, drop } = await createTestTable());
});
afterAll(() => drop());

/** A source whose one gap opened 13 × GAP_REFETCH_AFTER_SECONDS ago and was requested. */
function overdueSource(accountId: string, source: string) {
  const state: EventSourceState = {
    ...EMPTY_EVENT_SOURCE,
    lastSequence: 3,
    gaps: [2],
    gapDetails: [
      {
        number: 2,
        openedAt: at(-13 * REFETCH_AFTER).toISOString(),
        refetchRequestedAt: at(-12 * REFETCH_AFTER).toISOString(),
      },
    ],
  };
  const write = sequenceWrite({ source, accountId }, 0, state, REFETCH_AFTER);
  return sequenceItem(tableName, write, at(-12 * REFETCH_AFTER).toISOString());
}

async function writeOverdueSources(accountId: string) {
  for (let i = 0; i < OVERDUE_SOURCES; i += 100) {
    const items = Array.from({ length: Math.min(100, OVERDUE_SOURCES - i) }, (_, j) =>
      overdueSource(accountId, `urn:producer:overdue-${i + j}`),
    );
    await client.send(new TransactWriteItemsCommand({ TransactItems: items }));
  }
}

async function accountWithHold(expiresAt: Date): Promise<HoldRecord> {
  const accountId = randomUUID();
  const created = T0.toISOString();
  await client.send(
    new PutItemCommand({
      TableName: tableName,
      Item: marshall({
        ...keys.account(accountId),
        kind: 'account',
        id: accountId,
        ownerId: 'starved-owner',
        currency: 'EUR',
        balance: 100,
        available: 100,
        createdAt: created,
        updatedAt: created,
      }),
    }),
  );
  const hold: HoldRecord = {
    id: randomUUID(),
    accountId,
    ownerId: 'starved-owner',
    amount: 40,
    currency: 'EUR',
    status: 'active',
    capturedAmount: 0,
    expiresAt: expiresAt.toISOString(),
    createdAt: created,
    updatedAt: created,
  };
  const change = {
    kind: 'hold_placed' as const,
    at: created,
    balanceDelta: 0,
    availableDelta: -hold.amount,
    holdId: hold.id,
  };
  await client.send(
    new TransactWriteItemsCommand({
      TransactItems: [
        accountChangeItem(tableName, { accountId, changes: [change], requireAvailableAtLeast: 40 }),
        ...newHoldItems(tableName, hold),
      ],
    }),
  );
  return hold;
}

/** The composed handlers over a budget counted in items settled (5 ms each). */
function budgetedSweeper() {
  const table = { client, tableName };
  const gaps = gapSweep(
    createGapRequestStore(table),
    { publish: async () => undefined },
    {
      refetchAfterSeconds: REFETCH_AFTER,
      serviceSource: 'urn:idempotent-ledger:test',
      log: silentLog,
      decodeSource: toSourceRef,
      decodeRequest: toGapRequest,
    },
  );
  let settled = 0;
  const intake = intakeSweep(createIntakeDueStore(table), { notify: async () => [] }, 60);
  const counted = sweepHandlers(table, gaps, intake).map((handler) => ({
    kind: handler.kind,
    settle: (...args: Parameters<typeof handler.settle>) => {
      settled++;
      return handler.settle(...args);
    },
  }));
  const sweeper = new Sweeper(createDueStore(table), counted, {
    shardCount: DUE_SHARD_COUNT,
    pageSize: 10,
    budgetMs: BUDGET_MS,
    elapsedMs: () => settled * MS_PER_ITEM,
  });
  return {
    sweep: async (now: Date) => {
      settled = 0;
      const report = await sweeper.sweep(now);
      return { report, overdue: gaps.takeOverdue() };
    },
  };
}

async function holdStatus(hold: HoldRecord) {
  const { Item } = await client.send(
    new GetItemCommand({
      TableName: tableName,
      Key: marshall(keys.hold(hold.id)),
      ConsistentRead: true,
    }),
  );
  return Item ? unmarshall(Item).status : undefined;
}

describe('overdue gaps and the sweep budget (docs/contract.md §30)', () => {
  it('expires a hold on time behind 400 overdue, already requested gaps (10,000 scaled)', async () => {
    await writeOverdueSources(randomUUID());
    const { sweep } = budgetedSweeper();
    // The sweeps that find the gaps overdue: each counts them once and moves them on.
    let overdue = 0;
    for (let i = 0; i < 20; i++) {
      const { report, overdue: seen } = await sweep(T0);
      overdue += seen;
      if (!report.truncated) break;
    }
    expect(overdue).toBe(OVERDUE_SOURCES);

    const hold = await accountWithHold(at(60));
    const { report } = await sweep(at(61));
    expect(await holdStatus(hold)).toBe('expired');
    expect(report.byKind.get('hold')?.settled).toBe(1);
  });
});
