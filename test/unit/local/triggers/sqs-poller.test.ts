import {
  DeleteMessageBatchCommand,
  type Message,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqsPoller, type SqsPollerOptions } from '../../../../local/triggers/sqs-poller';

const QUEUE_URL = 'http://sqs.us-east-1.localhost:4566/000000000000/ledger-events';
const QUEUE_ARN = 'arn:aws:sqs:us-east-1:000000000000:ledger-events';

const sqs = mockClient(SQSClient);

function message(n: number, extra: Partial<Message> = {}): Message {
  return {
    MessageId: `id-${n}`,
    ReceiptHandle: `rh-${n}`,
    Body: `{"n":${n}}`,
    MD5OfBody: `md5-${n}`,
    Attributes: {
      SenderId: '000000000000',
      SentTimestamp: '1700000000000',
      ApproximateReceiveCount: '1',
      ApproximateFirstReceiveTimestamp: '1700000000100',
    },
    ...extra,
  };
}

/** A fake handler that records the events it gets and answers with `answer`. */
function fakeHandler(answer: (event: SQSEvent) => unknown) {
  const events: SQSEvent[] = [];
  const handler = async (event: SQSEvent) => {
    events.push(event);
    return answer(event);
  };
  return { events, handler };
}

function poller(handler: SqsPollerOptions['handler'], logs: string[] = []): SqsPoller {
  return new SqsPoller({
    client: new SQSClient({ region: 'us-east-1' }),
    queueUrl: QUEUE_URL,
    queueArn: QUEUE_ARN,
    region: 'us-east-1',
    handler,
    log: (line) => logs.push(line),
  });
}

function receives(...messages: Message[]) {
  sqs.on(ReceiveMessageCommand).resolvesOnce({ Messages: messages }).resolves({});
}

function deletedHandles(): string[] {
  return sqs
    .commandCalls(DeleteMessageBatchCommand)
    .flatMap((call) => call.args[0].input.Entries ?? [])
    .map((entry) => entry.ReceiptHandle ?? '');
}

beforeEach(() => {
  sqs.reset();
  sqs.on(DeleteMessageBatchCommand).callsFake((input: { Entries: { Id: string }[] }) => ({
    Successful: input.Entries.map(({ Id }) => ({ Id })),
    Failed: [],
  }));
});

afterEach(() => {
  sqs.reset();
});

describe('SQS poller (Lambda event source mapping stand-in)', () => {
  it('long-polls for up to 10 messages with every attribute and a visibility timeout', async () => {
    receives();
    await poller(async () => undefined).pollOnce();

    expect(sqs.commandCalls(ReceiveMessageCommand)[0]?.args[0].input).toEqual({
      QueueUrl: QUEUE_URL,
      MaxNumberOfMessages: 10,
      WaitTimeSeconds: 5,
      VisibilityTimeout: 5,
      MessageSystemAttributeNames: ['All'],
      MessageAttributeNames: ['All'],
    });
  });

  it('hands the handler a Lambda-shaped SQSEvent', async () => {
    receives(
      message(1, {
        MD5OfMessageAttributes: 'md5-attrs',
        MessageAttributes: {
          trace: { DataType: 'String', StringValue: 'abc' },
          count: { DataType: 'Number', StringValue: '42' },
          blob: { DataType: 'Binary', BinaryValue: new Uint8Array([1, 2, 3]) },
        },
      }),
      message(2),
    );
    const { events, handler } = fakeHandler(() => ({ batchItemFailures: [] }));

    await poller(handler).pollOnce();

    expect(events).toHaveLength(1);
    expect(events[0]?.Records).toEqual([
      {
        messageId: 'id-1',
        receiptHandle: 'rh-1',
        body: '{"n":1}',
        attributes: {
          ApproximateReceiveCount: '1',
          SentTimestamp: '1700000000000',
          SenderId: '000000000000',
          ApproximateFirstReceiveTimestamp: '1700000000100',
        },
        messageAttributes: {
          trace: {
            stringValue: 'abc',
            stringListValues: [],
            binaryListValues: [],
            dataType: 'String',
          },
          count: {
            stringValue: '42',
            stringListValues: [],
            binaryListValues: [],
            dataType: 'Number',
          },
          blob: {
            binaryValue: 'AQID',
            stringListValues: [],
            binaryListValues: [],
            dataType: 'Binary',
          },
        },
        md5OfBody: 'md5-1',
        md5OfMessageAttributes: 'md5-attrs',
        eventSource: 'aws:sqs',
        eventSourceARN: QUEUE_ARN,
        awsRegion: 'us-east-1',
      },
      {
        messageId: 'id-2',
        receiptHandle: 'rh-2',
        body: '{"n":2}',
        attributes: expect.objectContaining({ ApproximateReceiveCount: '1' }),
        messageAttributes: {},
        md5OfBody: 'md5-2',
        eventSource: 'aws:sqs',
        eventSourceARN: QUEUE_ARN,
        awsRegion: 'us-east-1',
      },
    ]);
  });

  it('deletes every record when the handler reports no failures', async () => {
    receives(message(1), message(2));
    const logs: string[] = [];

    const summary = await poller(async () => ({ batchItemFailures: [] }), logs).pollOnce();

    expect(summary).toEqual({ received: 2, deleted: 2, failed: 0 });
    expect(sqs.commandCalls(DeleteMessageBatchCommand)[0]?.args[0].input).toEqual({
      QueueUrl: QUEUE_URL,
      Entries: [
        { Id: 'm0', ReceiptHandle: 'rh-1' },
        { Id: 'm1', ReceiptHandle: 'rh-2' },
      ],
    });
    expect(logs).toEqual([expect.stringMatching(/^received 2, deleted 2, failed 0 \(\d+ ms\)$/)]);
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['an empty object', {}],
    ['batchItemFailures: null', { batchItemFailures: null }],
  ])('treats %s as a complete success, as Lambda does', async (_name, answer) => {
    receives(message(1));

    await poller(async () => answer).pollOnce();

    expect(deletedHandles()).toEqual(['rh-1']);
  });

  it('on partial failure deletes only the records not listed in batchItemFailures', async () => {
    receives(message(1), message(2), message(3));
    const logs: string[] = [];
    const answer: SQSBatchResponse = { batchItemFailures: [{ itemIdentifier: 'id-2' }] };

    const summary = await poller(async () => answer, logs).pollOnce();

    expect(deletedHandles()).toEqual(['rh-1', 'rh-3']);
    expect(summary).toEqual({ received: 3, deleted: 2, failed: 1 });
    expect(logs[0]).toMatch(/^received 3, deleted 2, failed 1 /);
  });

  it('deletes nothing when every record failed', async () => {
    receives(message(1), message(2));

    await poller(async (event: SQSEvent) => ({
      batchItemFailures: event.Records.map((r) => ({ itemIdentifier: r.messageId })),
    })).pollOnce();

    expect(sqs.commandCalls(DeleteMessageBatchCommand)).toHaveLength(0);
  });

  it('deletes nothing when the handler throws (the whole batch failed)', async () => {
    receives(message(1), message(2));
    const logs: string[] = [];

    const summary = await poller(async () => {
      throw new Error('DynamoDB is down');
    }, logs).pollOnce();

    expect(sqs.commandCalls(DeleteMessageBatchCommand)).toHaveLength(0);
    expect(summary).toEqual({
      received: 2,
      deleted: 0,
      failed: 2,
      batchFailure: 'handler threw: Error: DynamoDB is down',
    });
    expect(logs[0]).toMatch(
      /^received 2, deleted 0, failed 2 \(\d+ ms\); whole batch failed: handler threw: Error: DynamoDB is down$/,
    );
  });

  it.each([
    [
      'an itemIdentifier that is not in the batch',
      { batchItemFailures: [{ itemIdentifier: 'x' }] },
    ],
    ['an empty itemIdentifier', { batchItemFailures: [{ itemIdentifier: '' }] }],
    ['an entry without itemIdentifier', { batchItemFailures: [{}] }],
    ['batchItemFailures that is not a list', { batchItemFailures: 'id-1' }],
    ['a string instead of an object', 'ok'],
  ])('deletes nothing when the response has %s', async (_name, answer) => {
    receives(message(1), message(2));

    const summary = await poller(async () => answer).pollOnce();

    expect(sqs.commandCalls(DeleteMessageBatchCommand)).toHaveLength(0);
    expect(summary?.batchFailure).toMatch(/^malformed response/);
  });

  it('does not call the handler for an empty poll', async () => {
    receives();
    const { events, handler } = fakeHandler(() => undefined);

    expect(await poller(handler).pollOnce()).toBeUndefined();
    expect(events).toHaveLength(0);
  });

  it('counts and logs records SQS refused to delete (they will be redelivered)', async () => {
    receives(message(1), message(2));
    sqs.on(DeleteMessageBatchCommand).resolves({
      Successful: [{ Id: 'm0' }],
      Failed: [{ Id: 'm1', Code: 'ReceiptHandleIsInvalid', SenderFault: true, Message: 'gone' }],
    });
    const logs: string[] = [];

    const summary = await poller(async () => undefined, logs).pollOnce();

    expect(summary).toEqual({ received: 2, deleted: 1, failed: 1 });
    expect(logs[0]).toBe(
      'could not delete id-2: ReceiptHandleIsInvalid gone; it will be redelivered',
    );
  });

  it('starts after a first short poll, keeps polling, survives receive errors and stops', async () => {
    let calls = 0;
    sqs.on(ReceiveMessageCommand).callsFake(async () => {
      calls += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (calls === 2) throw new Error('connection refused');
      return calls === 3 ? { Messages: [message(1)] } : {};
    });
    const { events, handler } = fakeHandler(() => undefined);
    const logs: string[] = [];
    const p = new SqsPoller({
      client: new SQSClient({ region: 'us-east-1' }),
      queueUrl: QUEUE_URL,
      queueArn: QUEUE_ARN,
      region: 'us-east-1',
      handler,
      errorBackoffMs: 10,
      log: (line) => logs.push(line),
    });

    await p.start();
    expect(sqs.commandCalls(ReceiveMessageCommand)[0]?.args[0].input.WaitTimeSeconds).toBe(0);
    await expect.poll(() => events.length).toBe(1);
    await p.stop();
    const after = calls;
    await new Promise((resolve) => setTimeout(resolve, 30));

    expect(calls).toBe(after);
    expect(deletedHandles()).toEqual(['rh-1']);
    expect(logs).toContainEqual('receive failed: Error: connection refused; retrying in 10 ms');
  });

  it('rejects start() when the first receive fails', async () => {
    sqs.on(ReceiveMessageCommand).rejects(new Error('The specified queue does not exist.'));

    await expect(poller(async () => undefined).start()).rejects.toThrow(/does not exist/);
  });
});

describe('SQS poller: batches above 10 and several batches at once', () => {
  const withOptions = (handler: SqsPollerOptions['handler'], extra: Partial<SqsPollerOptions>) =>
    new SqsPoller({
      client: new SQSClient({ region: 'us-east-1' }),
      queueUrl: QUEUE_URL,
      queueArn: QUEUE_ARN,
      region: 'us-east-1',
      handler,
      ...extra,
    });
  const many = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) => message(from + i));

  it('gathers a batch of 25 from several receives, counting a message received twice once', async () => {
    sqs
      .on(ReceiveMessageCommand)
      .resolvesOnce({ Messages: many(0, 10) })
      .resolvesOnce({ Messages: [...many(10, 9), message(3, { ReceiptHandle: 'rh-3-again' })] })
      .resolvesOnce({ Messages: many(19, 6) })
      .resolves({});
    const { events, handler } = fakeHandler(() => ({ batchItemFailures: [] }));

    await withOptions(handler, { batchSize: 25 }).pollOnce();

    expect(events).toHaveLength(1);
    expect(events[0]?.Records).toHaveLength(25);
    expect(new Set(events[0]?.Records.map((r) => r.messageId)).size).toBe(25);
    expect(events[0]?.Records.find((r) => r.messageId === 'id-3')?.receiptHandle).toBe(
      'rh-3-again',
    );
    const asked = sqs.commandCalls(ReceiveMessageCommand).map((c) => c.args[0].input);
    expect(asked.map((i) => [i.MaxNumberOfMessages, i.WaitTimeSeconds])).toEqual([
      [10, 5],
      [10, 0],
      [6, 0],
    ]);
  });

  it('stops gathering when the queue has nothing more, and never gathers for 10 or fewer', async () => {
    sqs
      .on(ReceiveMessageCommand)
      .resolvesOnce({ Messages: many(0, 4) })
      .resolves({});
    const { events, handler } = fakeHandler(() => ({ batchItemFailures: [] }));
    await withOptions(handler, { batchSize: 50 }).pollOnce();
    expect(events[0]?.Records).toHaveLength(4);
    expect(sqs.commandCalls(ReceiveMessageCommand)).toHaveLength(2);

    sqs.reset();
    sqs.on(ReceiveMessageCommand).resolves({ Messages: many(0, 3) });
    await withOptions(handler, { batchSize: 10 }).pollOnce();
    expect(sqs.commandCalls(ReceiveMessageCommand)).toHaveLength(1);
  });

  it('runs up to maxConcurrency batches at once, as the event source mapping does', async () => {
    let n = 0;
    sqs.on(ReceiveMessageCommand).callsFake(async () => ({ Messages: [message(n++)] }));
    sqs.on(DeleteMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    let running = 0;
    let most = 0;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const p = withOptions(
      async () => {
        running++;
        most = Math.max(most, running);
        if (most === 3) release();
        await gate;
        running--;
        return { batchItemFailures: [] };
      },
      { maxConcurrency: 3 },
    );
    await p.start();
    await gate;
    await p.stop();
    expect(most).toBe(3);
  });

  it('refuses a maxConcurrency below 1', () => {
    expect(() => withOptions(async () => undefined, { maxConcurrency: 0 })).toThrow(
      /maxConcurrency must be a positive integer/,
    );
  });
});
