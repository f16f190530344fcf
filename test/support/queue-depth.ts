import { GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';

/** Visible plus in-flight messages on a queue. */
export async function queueDepth(sqs: SQSClient, url: string): Promise<number> {
  const { Attributes = {} } = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: url,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return (
    Number(Attributes.ApproximateNumberOfMessages) +
    Number(Attributes.ApproximateNumberOfMessagesNotVisible)
  );
}
