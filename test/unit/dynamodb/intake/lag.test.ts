import { DynamoDBClient, QueryCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { oldestPending, scanIntakeGates } from '../../../../functions/dynamodb/intake/lag';

/** The console's bounded intake reads (docs/contract.md §24, §29): never more than asked. */
const dynamo = mockClient(DynamoDBClient);
const client = new DynamoDBClient({ region: 'eu-west-1' });

const gate = (accountId: string, shard: number, accepted: number) =>
  marshall({
    pk: `INTAKE#${accountId}#${shard}`,
    sk: 'GATE',
    kind: 'intake-gate',
    accountId,
    ownerId: 'alice',
    creditIntake: 'deferred',
    accepted,
  });
const posted = (accountId: string, shard: number, count: number) =>
  marshall({ pk: `INTAKE#${accountId}#${shard}`, sk: 'POSTED', posted: count });

beforeEach(() => dynamo.reset());

describe('intake lag reads', () => {
  it('reads the oldest pending credits of a partition in one bounded Query', async () => {
    dynamo.on(QueryCommand).resolves({ Items: [] });
    await expect(oldestPending(client, 't', 'a', 3, 1)).resolves.toEqual([]);
    const [call] = dynamo.commandCalls(QueryCommand);
    expect(call?.args[0].input).toMatchObject({
      Limit: 1,
      ConsistentRead: true,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    });
  });

  it('counts what waits as accepted less posted, per partition', async () => {
    dynamo.on(ScanCommand).resolves({
      Items: [
        gate('a', 0, 5),
        posted('a', 0, 3),
        gate('a', 1, 2),
        gate('b', 0, 4),
        posted('b', 0, 4),
      ],
      ScannedCount: 5,
    });
    const scan = await scanIntakeGates(client, 't', 100);
    expect(scan.complete).toBe(true);
    expect(scan.gates.map((g) => [g.accountId, g.shard, g.pending])).toEqual([
      ['a', 0, 2],
      ['a', 1, 2],
      ['b', 0, 0],
    ]);
  });

  it('stops the gate Scan at its limit and says it is incomplete', async () => {
    dynamo.on(ScanCommand).callsFake((input: { Limit?: number }) => ({
      Items: [gate('a', 0, 1), gate('a', 1, 0)],
      ScannedCount: input.Limit,
      LastEvaluatedKey: marshall({ pk: 'x', sk: 'y' }),
    }));
    const scan = await scanIntakeGates(client, 't', 1500);
    expect(dynamo.commandCalls(ScanCommand).map((c) => c.args[0].input.Limit)).toEqual([1000, 500]);
    expect(scan).toMatchObject({ scanned: 1500, complete: false });
    expect(scan.gates[0]).toEqual({
      accountId: 'a',
      ownerId: 'alice',
      shard: 0,
      creditIntake: 'deferred',
      pending: 1,
    });
    expect(scan.gates).toHaveLength(4);
  });
});
