import {
  GetQueueUrlCommand,
  type Message,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';

/** A producer's view of the stack's SQS emulator: any credentials, the two ledger queues. */
export interface Producer {
  readonly sqs: SQSClient;
  readonly queueUrl: string;
  readonly dlqUrl: string;
}

export async function producerOf(sqsEndpoint: string): Promise<Producer> {
  const sqs = new SQSClient({
    endpoint: sqsEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'producer', secretAccessKey: 'producer' },
  });
  const url = async (QueueName: string) =>
    (await sqs.send(new GetQueueUrlCommand({ QueueName }))).QueueUrl ?? '';
  return { sqs, queueUrl: await url('ledger-events'), dlqUrl: await url('ledger-events-dlq') };
}

/** Receives (and hides for a minute) up to `count` dead letters, waiting at most 15 s. */
export async function receiveDeadLetters(producer: Producer, count: number): Promise<Message[]> {
  const letters: Message[] = [];
  const deadline = Date.now() + 15_000;
  while (letters.length < count && Date.now() < deadline) {
    const { Messages = [] } = await producer.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: producer.dlqUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 1,
        VisibilityTimeout: 60,
        MessageAttributeNames: ['All'],
      }),
    );
    letters.push(...Messages);
  }
  return letters;
}
