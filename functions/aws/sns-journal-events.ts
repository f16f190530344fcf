import { PublishBatchCommand, type SNSClient } from '@aws-sdk/client-sns';
import type { JournalEventsPort, OutboundEvent } from '../domain/journal-projector/port';

/** SNS batch entry ids: up to 80 of `[A-Za-z0-9_-]`; the event id has a `:`, so its position. */
const entryId = (index: number) => `e${index}`;

/**
 * The journal topic (docs/contract.md §15): one PublishBatch per 10 events, the CloudEvent as
 * the message (subscribe with raw message delivery to receive it as is). Message attributes
 * `type`, `subject` and (journal records) `kind` let a subscription filter without parsing the
 * body. Monitor flips (`ledger.balance_monitor.v1`, §28) go the same way.
 */
export function createSnsJournalEvents(client: SNSClient, topicArn: string): JournalEventsPort {
  return {
    async publish(events: readonly OutboundEvent[]) {
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
              // A journal record's kind; a monitor's flip (docs/contract.md §28) has none.
              ...('kind' in event.data
                ? { kind: { DataType: 'String', StringValue: event.data.kind } }
                : {}),
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
