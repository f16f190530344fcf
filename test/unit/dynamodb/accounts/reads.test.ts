import { BatchGetItemCommand, DynamoDBClient, QueryCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  decodePendingCursor,
  encodePendingCursor,
} from '../../../../functions/dynamodb/accounts/pending-cursor';
import { createEntryReadStore } from '../../../../functions/dynamodb/accounts/reads';
import { keys } from '../../../../functions/dynamodb/table/keys';

const ddb = mockClient(DynamoDBClient);
beforeEach(() => {
  ddb.reset();
  ddb.on(BatchGetItemCommand).resolves({ Responses: { t: [] } });
});
const store = () => createEntryReadStore({ client: new DynamoDBClient({}), tableName: 't' });

/** A stored pending credit of account a1 in `shard`, accepted at minute `m`. */
function pending(shard: number, m: number, id: string) {
  const acceptedAt = new Date(Date.UTC(2026, 10, 1, 0, m)).toISOString();
  const entry = {
    id,
    accountId: 'a1',
    type: 'credit',
    amount: 1,
    currency: 'EUR',
    origin: 'http',
    createdAt: acceptedAt,
    effectiveAt: acceptedAt,
  };
  return {
    ...keys.pendingCredit('a1', shard, acceptedAt, id),
    kind: 'pending-credit',
    entryId: id,
    acceptedAt,
    shard,
    entry,
  };
}

describe('pending credits across shards (functions/dynamodb/accounts/reads.ts)', () => {
  it('takes nothing past where a shard that may hold more stopped (a 1 MB page)', async () => {
    const early = pending(0, 1, 'e1');
    // Set-aside credits (§36) head the first page, whatever their partition.
    ddb.on(QueryCommand).resolves({ Items: [] });
    const setAside = {
      ...pending(1, 9, 's9'),
      ...keys.setAsideCredit('a1', 1, pending(1, 9, 's9').acceptedAt, 's9'),
      kind: 'set-aside-credit',
      reason: 'period_closed',
      setAsideAt: pending(1, 10, 's9').acceptedAt,
    };
    ddb
      .on(QueryCommand, {
        ExpressionAttributeValues: marshall({
          ':pk': keys.intakeGate('a1', 1).pk,
          ':prefix': 'SETASIDE#',
        }),
      })
      .resolves({ Items: [marshall(setAside)] });
    // Shard 0 stopped after one item although it may hold more (DynamoDB's 1 MB page).
    ddb
      .on(QueryCommand, {
        ExpressionAttributeValues: marshall({
          ':pk': keys.intakeGate('a1', 0).pk,
          ':prefix': 'PENDING#',
        }),
      })
      .resolves({
        Items: [marshall(early)],
        LastEvaluatedKey: marshall({ pk: early.pk, sk: early.sk }),
      });
    ddb
      .on(QueryCommand, {
        ExpressionAttributeValues: marshall({
          ':pk': keys.intakeGate('a1', 1).pk,
          ':prefix': 'PENDING#',
        }),
      })
      .resolves({ Items: [marshall(pending(1, 0, 'e0')), marshall(pending(1, 5, 'e5'))] });
    const page = await store().pendingCredits('a1', 2, 10, undefined);
    // e5 could sort after shard 0's unseen items: it waits for the next page.
    expect(page.items.map((credit) => credit.entry.id)).toEqual(['s9', 'e0', 'e1']);
    expect(page.items[0]?.setAside).toEqual({
      reason: 'period_closed',
      setAsideAt: setAside.setAsideAt,
    });
    expect(decodePendingCursor(page.nextCursor ?? undefined, 2)).toEqual({
      positions: [early.sk, pending(1, 0, 'e0').sk],
      accepted: [0, 0],
    });
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(4);
  });

  it('starts each shard after its position and ends with a null cursor when all are read', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });
    const cursor = encodePendingCursor({
      positions: [null, 'PENDING#2026-11-01T00:00:00.000Z#x'],
      accepted: [0, 0],
    });
    expect(await store().pendingCredits('a1', 2, 5, cursor)).toEqual({
      items: [],
      nextCursor: null,
    });
    const starts = ddb
      .commandCalls(QueryCommand)
      .map((call) => call.args[0].input.ExclusiveStartKey);
    expect(starts).toEqual([
      undefined,
      marshall({ pk: keys.intakeGate('a1', 1).pk, sk: 'PENDING#2026-11-01T00:00:00.000Z#x' }),
    ]);
    expect(ddb.commandCalls(QueryCommand).every((call) => call.args[0].input.Limit === 6)).toBe(
      true,
    );
  });
  it('passes again over a shard whose gate counted a credit since its pass began', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });
    const gate = (shard: number, accepted: number) =>
      marshall({ ...keys.intakeGate('a1', shard), accepted });
    ddb.on(BatchGetItemCommand).resolves({ Responses: { t: [gate(0, 3), gate(1, 7)] } });
    const at = 'PENDING#2026-11-01T00:00:00.000Z#x';
    const cursor = encodePendingCursor({ positions: [at, at], accepted: [3, 6] });
    const page = await store().pendingCredits('a1', 2, 5, cursor);
    expect(page.items).toEqual([]);
    expect(decodePendingCursor(page.nextCursor ?? undefined, 2)).toEqual({
      positions: [at, null],
      accepted: [3, 7],
    });
    // The gates are read after the Queries: a credit counted later is in the next check.
    const order = ddb.calls().map((call) => call.args[0].constructor.name);
    expect(order).toEqual(['QueryCommand', 'QueryCommand', 'BatchGetItemCommand']);
  });
});

describe('the pending-credits cursor', () => {
  it('round-trips a position per shard and refuses anything else as validation_failed', () => {
    const run = { positions: ['PENDING#a#b', null, null], accepted: [2, null, 0] };
    expect(decodePendingCursor(encodePendingCursor(run), 3)).toEqual(run);
    expect(decodePendingCursor(undefined, 2)).toBeUndefined();
    // A cursor from before gate counts: every count unknown.
    const old = Buffer.from(JSON.stringify({ shards: run.positions })).toString('base64url');
    expect(decodePendingCursor(old, 3)).toEqual({ ...run, accepted: [null, null, null] });
    const cursor = (positions: (string | null)[], accepted: unknown[] = [0, 0, 0]) =>
      Buffer.from(JSON.stringify({ shards: positions, accepted })).toString('base64url');
    const bad = [
      cursor(run.positions.slice(0, 2)),
      cursor(['ENTRY#x', null, null]),
      cursor([`PENDING#${'x'.repeat(300)}`, null, null]),
      cursor(run.positions, [0, 0]),
      cursor(run.positions, [0, -1, 0]),
      cursor(run.positions, [0, '1', 0]),
      Buffer.from('{"shards":7}').toString('base64url'),
      'not json',
    ];
    for (const cursor of bad) {
      expect(() => decodePendingCursor(cursor, 3), cursor).toThrow(
        expect.objectContaining({ code: 'validation_failed' }),
      );
    }
  });
});
