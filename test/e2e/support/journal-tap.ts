import {
  DeleteMessageBatchCommand,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { JournalEvent } from '../../../functions/domain/journal/events';

/** Reads the journal's tap queue until stopped, noting when each event id first arrived. */
export function tapReader(sqs: SQSClient, tapUrl: string) {
  const arrivals = new Map<string, { at: number; event: JournalEvent }>();
  let running = true;
  const loop = (async () => {
    while (running) {
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: tapUrl,
          MaxNumberOfMessages: 10,
          WaitTimeSeconds: 1,
        }),
      );
      const at = Date.now();
      for (const message of Messages) {
        const event = JSON.parse(message.Body ?? '{}') as JournalEvent;
        if (!arrivals.has(event.id)) arrivals.set(event.id, { at, event });
      }
      if (Messages.length > 0) {
        await sqs.send(
          new DeleteMessageBatchCommand({
            QueueUrl: tapUrl,
            Entries: Messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })),
          }),
        );
      }
    }
  })();
  return {
    arrivals,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}
