import {
  DynamoDBClient,
  GetItemCommand,
  QueryCommand,
  TransactionCanceledException,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../../../functions/domain/accounts/model';
import type { PendingCredit } from '../../../../functions/domain/accounts/pending-credits';
import { createPostingStore } from '../../../../functions/dynamodb/intake/posting-store';

/** docs/contract.md §24: what ONE posting transaction holds, and how a cancellation reads. */
const dynamo = mockClient(DynamoDBClient);
afterEach(() => dynamo.reset());

const ACCOUNT = 'acct-1';
const accepted = '2026-12-01T10:00:00.000Z';
const at = '2026-12-01T10:00:05.000Z';

function credit(n: number, shard: number, extra: Partial<LedgerEntry> = {}): PendingCredit {
  return {
    entry: {
      id: `e${n}`,
      accountId: ACCOUNT,
      type: 'credit',
      amount: 10 * n,
      currency: 'EUR',
      origin: 'http',
      createdAt: accepted,
      effectiveAt: accepted,
      ...extra,
    },
    acceptedAt: accepted,
    shard,
  };
}

const store = () =>
  createPostingStore({
    client: new DynamoDBClient({ region: 'us-east-1' }),
    tableName: 'ledger',
    retry: { sleep: async () => {}, maxAttempts: 2 },
  });

const cancelled = (codes: string[]) =>
  new TransactionCanceledException({
    message: 'cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

describe('the posting store (docs/contract.md §24)', () => {
  it('posts a chunk as ONE transaction: one account update, entries, pointers, deletes, posted counts', async () => {
    dynamo.on(TransactWriteItemsCommand).resolves({});
    const chunk = [
      credit(1, 0),
      credit(2, 3, { type: 'transfer_in', transferId: 't1', counterpartyAccountId: 'x' }),
      credit(3, 0, {
        type: 'reversal',
        direction: 'credit',
        reversalOf: { kind: 'entry', id: 'o' },
      }),
    ];
    expect(await store().post(ACCOUNT, chunk, at)).toEqual({ kind: 'posted' });
    const calls = dynamo.commandCalls(TransactWriteItemsCommand);
    expect(calls).toHaveLength(1);
    const items = calls[0]?.args[0].input.TransactItems ?? [];
    expect(items).toHaveLength(1 + 3 * 3 + 2);
    const accountUpdates = items.filter((i) => unmarshall(i.Update?.Key ?? {}).sk === 'ACCOUNT');
    expect(accountUpdates).toHaveLength(1);
    const update = accountUpdates[0]?.Update;
    const values = unmarshall(update?.ExpressionAttributeValues ?? {});
    expect(values[':n']).toBe(3);
    expect(values[':balanceDelta']).toBe(60);
    expect(update?.ConditionExpression).not.toContain('#ownerId');
    expect(update?.ConditionExpression).not.toContain('#status');
    expect(update?.ConditionExpression).not.toContain('#creditIntake');
    expect(values[':lastChanges']).toEqual([
      expect.objectContaining({ kind: 'credit', entryId: 'e1', at, acceptedAt: accepted }),
      expect.objectContaining({ kind: 'transfer_in', transferId: 't1', acceptedAt: accepted }),
      expect.objectContaining({ kind: 'reversal', reversalOf: 'o', balanceDelta: 30 }),
    ]);
    const deletes = items.filter((i) => i.Delete);
    expect(deletes.map((d) => d.Delete?.ConditionExpression)).toEqual(
      Array(3).fill('attribute_exists(pk)'),
    );
    // The gates are never touched (the intakes hold them): each partition's posted count grows.
    const keysOf = (i: (typeof items)[number]) => unmarshall(i.Update?.Key ?? {});
    expect(items.filter((i) => keysOf(i).sk === 'GATE')).toEqual([]);
    const posted = items.filter((i) => keysOf(i).sk === 'POSTED');
    expect(posted.map((p) => [keysOf(p).pk, p.Update?.UpdateExpression])).toEqual([
      [`INTAKE#${ACCOUNT}#0`, 'ADD #posted :count'],
      [`INTAKE#${ACCOUNT}#3`, 'ADD #posted :count'],
    ]);
    expect(
      posted.map((p) => unmarshall(p.Update?.ExpressionAttributeValues ?? {})[':count']),
    ).toEqual([2, 1]);
  });

  it('reads a cancellation: a pending item gone is a lost race, the account alone a refusal', async () => {
    const chunk = [credit(1, 0)];
    // account, entry, pointer, pending, posted
    dynamo
      .on(TransactWriteItemsCommand)
      .rejectsOnce(cancelled(['None', 'None', 'None', 'ConditionalCheckFailed', 'None']));
    expect(await store().post(ACCOUNT, chunk, at)).toEqual({ kind: 'gone' });
    dynamo.reset();
    dynamo
      .on(TransactWriteItemsCommand)
      .rejectsOnce(cancelled(['ConditionalCheckFailed', 'None', 'None', 'None', 'None']));
    expect(await store().post(ACCOUNT, chunk, at)).toEqual({ kind: 'refused', account: undefined });
    dynamo.reset();
    dynamo
      .on(TransactWriteItemsCommand)
      .rejectsOnce(cancelled(['TransactionConflict', 'None', 'None', 'None', 'None']));
    expect(await store().post(ACCOUNT, chunk, at)).toMatchObject({ kind: 'contended' });
  });

  it("reads each of the account's partitions, strongly consistent, pending items only", async () => {
    dynamo
      .on(GetItemCommand)
      .resolves({ Item: marshall({ pk: `ACCOUNT#${ACCOUNT}`, intakeShards: 3 }) });
    dynamo.on(QueryCommand).callsFake((input) => {
      const shard = Number(
        String(unmarshall(input.ExpressionAttributeValues)[':pk']).split('#').at(-1),
      );
      const c = credit(shard + 1, shard);
      return { Items: [marshall({ kind: 'pending-credit', ...c, entry: { ...c.entry } })] };
    });
    const read = await store().readPending(ACCOUNT, 5);
    expect(read.map((c) => [c.shard, c.entry.id])).toEqual([
      [0, 'e1'],
      [1, 'e2'],
      [2, 'e3'],
    ]);
    const queries = dynamo.commandCalls(QueryCommand).map((c) => c.args[0].input);
    expect(queries.every((q) => q.ConsistentRead === true && q.Limit === 5)).toBe(true);
    expect(unmarshall(queries[0]?.ExpressionAttributeValues ?? {})[':prefix']).toBe('PENDING#');
  });
});
