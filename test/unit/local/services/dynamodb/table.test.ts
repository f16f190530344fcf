import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveStreamArn } from '../../../../../local/services/dynamodb/table';

const STREAM_ARN =
  'arn:aws:dynamodb:ddblocal:000000000000:table/ledger/stream/2026-11-29T17:14:02.071';
const dynamo = mockClient(DynamoDBClient);

afterEach(() => {
  dynamo.reset();
});

describe('resolveStreamArn (the stream every stream trigger reads)', () => {
  it('finds the table stream with DescribeTable', async () => {
    dynamo.on(DescribeTableCommand).resolves({
      Table: { LatestStreamArn: STREAM_ARN, StreamSpecification: { StreamEnabled: true } },
    });

    await expect(
      resolveStreamArn(new DynamoDBClient({ region: 'us-east-1' }), 'ledger'),
    ).resolves.toBe(STREAM_ARN);
    expect(dynamo.commandCalls(DescribeTableCommand)[0]?.args[0].input).toEqual({
      TableName: 'ledger',
    });
  });

  it('fails with a readable error when the table has no stream', async () => {
    dynamo.on(DescribeTableCommand).resolves({ Table: { TableName: 'ledger' } });

    await expect(
      resolveStreamArn(new DynamoDBClient({ region: 'us-east-1' }), 'ledger'),
    ).rejects.toThrow('table ledger has no stream');
  });

  it('fails when the stream is disabled', async () => {
    dynamo.on(DescribeTableCommand).resolves({
      Table: { LatestStreamArn: STREAM_ARN, StreamSpecification: { StreamEnabled: false } },
    });

    await expect(
      resolveStreamArn(new DynamoDBClient({ region: 'us-east-1' }), 'ledger'),
    ).rejects.toThrow('table ledger has no stream');
  });
});
