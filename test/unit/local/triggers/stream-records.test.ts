import type { _Record } from '@aws-sdk/client-dynamodb-streams';
import { describe, expect, it } from 'vitest';
import { toLambdaStreamRecord } from '../../../../local/triggers/stream-records';

const STREAM_ARN =
  'arn:aws:dynamodb:ddblocal:000000000000:table/ledger/stream/2026-11-29T17:14:02.071';

describe('toLambdaStreamRecord', () => {
  it('gives the Lambda DynamoDB Streams shape: seconds, base64 binary, the stream ARN and region', () => {
    const record: _Record = {
      eventID: 'e1',
      eventName: 'INSERT',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'ddblocal',
      dynamodb: {
        ApproximateCreationDateTime: new Date('2026-11-29T17:14:59.900Z'),
        Keys: { pk: { S: 'OUTBOX#1' }, sk: { S: 'OUTBOX' } },
        NewImage: {
          pk: { S: 'OUTBOX#1' },
          n: { N: '12' },
          ok: { BOOL: true },
          none: { NULL: true },
          bin: { B: new Uint8Array([1, 2, 255]) },
          tags: { SS: ['a', 'b'] },
          job: {
            M: { taskId: { S: 't' }, list: { L: [{ N: '1' }, { BS: [new Uint8Array([0])] }] } },
          },
        },
        SequenceNumber: '000000000000000000007',
        SizeBytes: 99,
        StreamViewType: 'NEW_IMAGE',
      },
    };

    expect(toLambdaStreamRecord(record, STREAM_ARN, 'us-east-1')).toEqual({
      eventID: 'e1',
      eventName: 'INSERT',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'us-east-1',
      eventSourceARN: STREAM_ARN,
      dynamodb: {
        ApproximateCreationDateTime: Math.floor(Date.parse('2026-11-29T17:14:59.900Z') / 1000),
        Keys: { pk: { S: 'OUTBOX#1' }, sk: { S: 'OUTBOX' } },
        NewImage: {
          pk: { S: 'OUTBOX#1' },
          n: { N: '12' },
          ok: { BOOL: true },
          none: { NULL: true },
          bin: { B: 'AQL/' },
          tags: { SS: ['a', 'b'] },
          job: { M: { taskId: { S: 't' }, list: { L: [{ N: '1' }, { BS: ['AA=='] }] } } },
        },
        SequenceNumber: '000000000000000000007',
        SizeBytes: 99,
        StreamViewType: 'NEW_IMAGE',
      },
    });
  });

  it('keeps the identity of a TTL deletion', () => {
    const record: _Record = {
      eventName: 'REMOVE',
      userIdentity: { Type: 'Service', PrincipalId: 'dynamodb.amazonaws.com' },
      dynamodb: { Keys: { pk: { S: 'IDEM#1' } }, SequenceNumber: '9' },
    };

    expect(toLambdaStreamRecord(record, STREAM_ARN, 'us-east-1')).toMatchObject({
      eventName: 'REMOVE',
      userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' },
      dynamodb: { Keys: { pk: { S: 'IDEM#1' } }, SequenceNumber: '9' },
    });
  });
});
