import { PublishBatchCommand, type SNSClient } from '@aws-sdk/client-sns';
import type { JournalEvent } from '../domain/journal/events';
import type { JournalEventsPort } from '../domain/journal/port';

/** SNS batch entry ids: up to 80 of `[A-Za-z0-9_-]`; the event id has a `:`, so its position. */
const entryId = (index: number) => `e${index}`;

/**
 * The journal topic (docs/contract.md §15): one PublishBatch per 10 events, the CloudEvent as
 * the message (subscribe with raw message delivery to receive it as is). Message attributes
 * `type`, `subject` and `kind` let a subscription filter without parsing the body.
 */
export function createSnsJournalEvents(client: SNSClient, topicArn: string): JournalEventsPort {
  return {
    async publish(events: readonly JournalEvent[]) {
      if (events.length === 0) return [];
      const { Failed = [] } = await client.send(
        new PublishBatchCommand({
          TopicArn: topicArn,
          PublishBatchRequestEntries: events.map((event, index) => ({
            Id: entryId(index),
            Message: JSON.stringify(event),
            MessageAttributes: {
              type: { DataType: 'String', StringValue: event.type },
              subject: { DataType: 'String', StringValue: event.subject },
              kind: { DataType: 'String', StringValue: event.data.kind },
            },
          })),
        }),
      );
      return Failed.flatMap((failure) => {
        const event = events.find((_, index) => entryId(index) === failure.Id);
        return event ? [event.id] : [];
      });
    },
  };
}
