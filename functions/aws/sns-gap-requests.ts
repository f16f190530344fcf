import { PublishCommand, type SNSClient } from '@aws-sdk/client-sns';
import type { GapRequestPublisher } from '../domain/gaps/port';

/**
 * The gap topic (docs/contract.md §18): one Publish per request, the CloudEvent as the message
 * (subscribe with raw message delivery to receive it as is). The message attribute `source` is
 * the producer's, so a producer subscribes with a filter policy to its own requests; a filter
 * policy routes, it does not authorize (every subscriber the topic policy admits may read all).
 */
export function createSnsGapRequests(client: SNSClient, topicArn: string): GapRequestPublisher {
  return {
    async publish(event) {
      await client.send(
        new PublishCommand({
          TopicArn: topicArn,
          Message: JSON.stringify(event),
          MessageAttributes: {
            source: { DataType: 'String', StringValue: event.data.source },
            type: { DataType: 'String', StringValue: event.type },
            subject: { DataType: 'String', StringValue: event.subject },
          },
        }),
      );
    },
  };
}
