import { DynamoDBClient, QueryCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { readIntakeHead, scanIntakeGates } from '../../../../functions/dynamodb/intake/lag';

/** The console's bounded intake reads (docs/contract.md §24, §29): never more than asked. */
const dynamo = mockClient(DynamoDBClient);
const client = new DynamoDBClient({ region: 'eu-west-1' });

const gate = (accountId: string, shard: number, pending: number) =>
  marshall({
    pk: `INTAKE#${accountId}#${shard}`,
    sk: 'GATE',
    kind: 'intake-gate',
    accountId,
    ownerId: 'alice',
    creditIntake: 'deferred',
    pending,
  });

beforeEach(() => dynamo.reset());

describe('intake lag reads', () => {
  it('reads a partition head in one Query of the gate and the oldest credits', async () => {
    dynamo.on(QueryCommand).resolves({ Items: [gate('a', 3, 7)] });
    const head = await readIntakeHead(client, 't', 'a', 3, 50);
    expect(head).toEqual({ shard: 3, pending: 7, oldest: [] });
    const [call] = dynamo.commandCalls(QueryCommand);
    expect(call?.args[0].input).toMatchObject({ Limit: 51, ConsistentRead: true });
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
