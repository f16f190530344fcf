import type { SQSClient } from '@aws-sdk/client-sqs';
import { type TableComposition, tableOptions } from '../composition';
import type { EventsConfig } from '../config';
import { EventService } from '../core/event-service';
import { createSqsDeadLetters } from '../queue/dead-letter';
import { createEventStore } from '../store/event-store';
import { createEventsConsumer, type EventsHandler } from './consumer';

export interface EventsComposition extends TableComposition<EventsConfig> {
  readonly sqs: SQSClient;
}

/** The `ledger-events` consumer on its event store, dead-lettering to `ledger-events-dlq`. */
export function composeEventsHandler(options: EventsComposition): EventsHandler {
  const { config } = options;
  return createEventsConsumer({
    events: new EventService(createEventStore(tableOptions(options)), {
      inboxRetentionSeconds: config.inboxRetentionSeconds,
    }),
    deadLetters: createSqsDeadLetters(options.sqs, config.deadLetterQueueUrl),
    clock: options.clock,
    log: options.log,
    metrics: options.metrics,
  });
}
