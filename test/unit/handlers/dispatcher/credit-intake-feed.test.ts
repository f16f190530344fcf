import { DynamoDBClient, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { composeDispatcherHandler } from '../../../../functions/handlers/dispatcher/compose';
import { testConfig } from '../../../support/config';
import { exportJob } from '../../../support/exports/export-job';
import { quietRuntime } from '../../../support/runtime';

/**
 * docs/contract.md §24: the folder is fed without a third stream reader — the outbox dispatcher
 * sends ONE `credit-intake` message per account per stream batch for new pending credits.
 */
const sqs = mockClient(SQSClient);
const dynamo = mockClient(DynamoDBClient);
afterEach(() => {
  sqs.reset();
  dynamo.reset();
});

const JOBS = 'https://sqs.us-east-1.amazonaws.com/1/export-jobs';
const INTAKE = 'https://sqs.us-east-1.amazonaws.com/1/credit-intake';

const dispatcher = () =>
  composeDispatcherHandler({
    ...quietRuntime(),
    config: { ...testConfig(), exportJobsQueueUrl: JOBS, creditIntakeQueueUrl: INTAKE },
    dynamo: new DynamoDBClient({ region: 'us-east-1' }),
    sqs: new SQSClient({ region: 'us-east-1' }),
  });

function record(item: Record<string, unknown>, sequence: string, eventName = 'INSERT') {
  return {
    eventName,
    eventSource: 'aws:dynamodb',
    dynamodb: {
      SequenceNumber: sequence,
      NewImage: marshall(item) as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'],
    },
  } as DynamoDBRecord;
}

const pending = (accountId: string, n: number) => ({
  pk: `INTAKE#${accountId}#${n % 8}`,
  sk: `PENDING#2026-12-01T10:00:0${n}.000Z#e${n}`,
  kind: 'pending-credit',
  accountId,
  entryId: `e${n}`,
  acceptedAt: `2026-12-01T10:00:0${n % 10}.000Z`,
});

const bodies = () =>
  sqs
    .commandCalls(SendMessageBatchCommand)
    .filter((c) => c.args[0].input.QueueUrl === INTAKE)
    .flatMap((c) => (c.args[0].input.Entries ?? []).map((e) => JSON.parse(e.MessageBody ?? '')));

describe('the dispatcher feeds credit-intake (docs/contract.md §24)', () => {
  it('sends one message per account per batch, ignoring updates and deletes', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const records = [
      record(pending('a', 1), '1'),
      record(pending('b', 2), '2'),
      record(pending('a', 3), '3'),
      record({ ...pending('c', 4) }, '4', 'MODIFY'),
      { eventName: 'REMOVE', dynamodb: { SequenceNumber: '5' } } as DynamoDBRecord,
      record({ pk: 'ACCOUNT#a', sk: 'ACCOUNT', kind: 'account' }, '6'),
    ];
    expect(await dispatcher()({ Records: records })).toEqual({ batchItemFailures: [] });
    expect(bodies()).toEqual([{ accountId: 'a' }, { accountId: 'b' }]);
  });

  it("upserts each account's INTAKE_DUE marker (oldest acceptance) before sending (§36)", async () => {
    const order: string[] = [];
    dynamo.on(UpdateItemCommand).callsFake(async () => void order.push('mark'));
    sqs.on(SendMessageBatchCommand).callsFake(async () => {
      order.push('send');
      return { Failed: [] };
    });
    await dispatcher()({ Records: [record(pending('a', 3), '1'), record(pending('a', 1), '2')] });
    expect(order).toEqual(['mark', 'send']);
    const [mark] = dynamo.commandCalls(UpdateItemCommand).map((c) => c.args[0].input);
    expect(unmarshall(mark?.Key ?? {})).toEqual({ pk: 'INTAKE_DUE#a', sk: 'DUE' });
    const values = unmarshall(mark?.ExpressionAttributeValues ?? {});
    expect(values).toMatchObject({ ':since': '2026-12-01T10:00:01.000Z', ':accountId': 'a' });
    expect(values[':dueAt']).toBe(Date.parse('2026-12-01T10:00:01.000Z') + 60_000);
    // A marker that cannot be written: nothing sent for that account, its record retried.
    dynamo.reset();
    sqs.reset();
    dynamo.on(UpdateItemCommand).rejects(new Error('throttled'));
    expect(await dispatcher()({ Records: [record(pending('b', 2), '7')] })).toEqual({
      batchItemFailures: [{ itemIdentifier: '7' }],
    });
    expect(bodies()).toEqual([]);
  });

  it('sends in batches of ten messages', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Failed: [] });
    const records = Array.from({ length: 23 }, (_, i) => record(pending(`acct-${i}`, i), `${i}`));
    await dispatcher()({ Records: records });
    const sizes = sqs
      .commandCalls(SendMessageBatchCommand)
      .map((c) => c.args[0].input.Entries?.length);
    expect(sizes).toEqual([10, 10, 3]);
    expect(bodies()).toHaveLength(23);
  });

  it('reports the first record of an account not accepted, so the stream retries from it', async () => {
    sqs.on(SendMessageBatchCommand).resolves({
      Failed: [{ Id: '1', Code: 'InternalError', SenderFault: false }],
    });
    const records = [
      record(pending('a', 1), '11'),
      record(pending('b', 2), '12'),
      record(pending('b', 3), '13'),
    ];
    expect(await dispatcher()({ Records: records })).toEqual({
      batchItemFailures: [{ itemIdentifier: '12' }],
    });
  });

  it('still sends the accounts before a failed export job, and reports the earlier failure', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Failed: [] });
    sqs.on(SendMessageCommand).rejects(new Error('export-jobs down'));
    const job = exportJob();
    const records = [
      record(pending('a', 1), '21'),
      record({ pk: `OUTBOX#${job.executionId}`, sk: 'OUTBOX', kind: 'outbox', job }, '22'),
      record(pending('b', 2), '23'),
    ];
    expect(await dispatcher()({ Records: records })).toEqual({
      batchItemFailures: [{ itemIdentifier: '22' }],
    });
    expect(bodies()).toEqual([{ accountId: 'a' }]);
    // The whole send failing: the earliest account's record is reported.
    sqs.reset();
    sqs.on(SendMessageBatchCommand).rejects(new Error('credit-intake down'));
    sqs.on(SendMessageCommand).rejects(new Error('export-jobs down'));
    expect(await dispatcher()({ Records: records })).toEqual({
      batchItemFailures: [{ itemIdentifier: '21' }],
    });
  });
});
