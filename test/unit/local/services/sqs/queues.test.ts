import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SetQueueAttributesCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  localSqsClient,
  type RunningSqs,
  startSqsEmulator,
} from '../../../../../local/services/sqs/fauxqs';
import { ensureQueues, type LocalQueues } from '../../../../../local/services/sqs/queues';
import { SqsPoller } from '../../../../../local/triggers/sqs-poller';

/**
 * Runs against the real fauxqs, in this process on a random loopback port (no Java, well under
 * a second): queue setup, and the redrive the local stack relies on fauxqs for.
 */

let sqs: RunningSqs;
let client: SQSClient;
let queues: LocalQueues;

beforeAll(async () => {
  sqs = await startSqsEmulator(0);
  client = localSqsClient(sqs.endpoint);
  queues = await ensureQueues(client);
});

afterAll(async () => {
  client?.destroy();
  await sqs?.stop();
});

async function attributes(url: string, names: string[]): Promise<Record<string, string>> {
  const result = await client.send(
    new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: names as never }),
  );
  return result.Attributes ?? {};
}

async function depth(url: string): Promise<number> {
  const a = await attributes(url, [
    'ApproximateNumberOfMessages',
    'ApproximateNumberOfMessagesNotVisible',
  ]);
  return Number(a.ApproximateNumberOfMessages) + Number(a.ApproximateNumberOfMessagesNotVisible);
}

describe('local SQS (fauxqs)', () => {
  it('listens on loopback only', () => {
    expect(sqs.endpoint).toBe(`http://127.0.0.1:${sqs.port}`);
  });

  it('creates the three queues, ledger-events redriving to its DLQ after 5 receives', async () => {
    expect(queues.ledgerEvents.arn).toBe('arn:aws:sqs:us-east-1:000000000000:ledger-events');
    expect(queues.deadLetters.arn).toBe('arn:aws:sqs:us-east-1:000000000000:ledger-events-dlq');
    expect(queues.exportJobs.arn).toBe('arn:aws:sqs:us-east-1:000000000000:export-jobs');
    const { RedrivePolicy } = await attributes(queues.ledgerEvents.url, ['RedrivePolicy']);
    expect(JSON.parse(RedrivePolicy ?? '{}')).toEqual({
      deadLetterTargetArn: queues.deadLetters.arn,
      maxReceiveCount: 5,
    });
  });

  it('is idempotent, and restores a redrive policy someone changed', async () => {
    await client.send(
      new SetQueueAttributesCommand({
        QueueUrl: queues.ledgerEvents.url,
        Attributes: {
          RedrivePolicy: JSON.stringify({ deadLetterTargetArn: 'x', maxReceiveCount: 9 }),
        },
      }),
    );

    const again = await ensureQueues(client);

    expect(again).toEqual(queues);
    const { RedrivePolicy } = await attributes(queues.ledgerEvents.url, ['RedrivePolicy']);
    expect(JSON.parse(RedrivePolicy ?? '{}')).toMatchObject({ maxReceiveCount: 5 });
  });

  it('moves a message to the DLQ after 5 failed receives through the poller', async () => {
    const seen: string[] = [];
    const poller = new SqsPoller({
      client,
      queueUrl: queues.ledgerEvents.url,
      queueArn: queues.ledgerEvents.arn,
      region: 'us-east-1',
      visibilityTimeoutSeconds: 0, // a failed message is visible again at once
      handler: async (event: SQSEvent) => {
        seen.push(...event.Records.map((r) => r.attributes.ApproximateReceiveCount));
        return { batchItemFailures: event.Records.map((r) => ({ itemIdentifier: r.messageId })) };
      },
    });
    const sent = await client.send(
      new SendMessageCommand({
        QueueUrl: queues.ledgerEvents.url,
        MessageBody: 'always fails',
        MessageAttributes: { origin: { DataType: 'String', StringValue: 'unit-test' } },
      }),
    );

    for (let i = 0; i < 7; i += 1) await poller.pollOnce(0);

    // fauxqs moves it on the 6th receive attempt, like SQS: the handler saw it 5 times.
    expect(seen).toEqual(['1', '2', '3', '4', '5']);
    expect(await depth(queues.ledgerEvents.url)).toBe(0);
    const dlq = await client.send(
      new ReceiveMessageCommand({
        QueueUrl: queues.deadLetters.url,
        MaxNumberOfMessages: 10,
        MessageAttributeNames: ['All'],
        VisibilityTimeout: 0,
      }),
    );
    expect(dlq.Messages).toHaveLength(1);
    expect(dlq.Messages?.[0]).toMatchObject({
      MessageId: sent.MessageId,
      Body: 'always fails',
      MessageAttributes: { origin: { DataType: 'String', StringValue: 'unit-test' } },
    });
  });

  it('deletes what succeeded and redelivers what failed', async () => {
    const queue = await client.send(new CreateQueueCommand({ QueueName: 'partial' }));
    const url = queue.QueueUrl ?? '';
    for (const body of ['ok-1', 'fail', 'ok-2']) {
      await client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: body }));
    }
    const poller = new SqsPoller({
      client,
      queueUrl: url,
      queueArn: 'arn:aws:sqs:us-east-1:000000000000:partial',
      region: 'us-east-1',
      visibilityTimeoutSeconds: 0,
      handler: async (event: SQSEvent) => ({
        batchItemFailures: event.Records.filter((r) => r.body === 'fail').map((r) => ({
          itemIdentifier: r.messageId,
        })),
      }),
    });

    expect(await poller.pollOnce(0)).toEqual({ received: 3, deleted: 2, failed: 1 });
    const again = await client.send(
      new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, VisibilityTimeout: 0 }),
    );
    expect(again.Messages?.map((m) => m.Body)).toEqual(['fail']);
  });

  it('stops promptly in the middle of a long poll', async () => {
    const queue = await client.send(new CreateQueueCommand({ QueueName: 'idle' }));
    const poller = new SqsPoller({
      client,
      queueUrl: queue.QueueUrl ?? '',
      queueArn: 'arn:aws:sqs:us-east-1:000000000000:idle',
      region: 'us-east-1',
      waitTimeSeconds: 20,
      handler: async () => undefined,
    });
    await poller.start();
    await new Promise((resolve) => setTimeout(resolve, 100));

    // A stop that waited for the 20 s long poll would outlast this test's timeout and fail it.
    await expect(poller.stop()).resolves.toBeUndefined();
  });
});
