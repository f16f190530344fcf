import type { SQSClient } from '@aws-sdk/client-sqs';
import { createSqsDeadLetters } from '../../aws/sqs-dead-letters';
import { EventService } from '../../domain/events/service';
import { createEventStore } from '../../dynamodb/events/store';
import { resolveRuntime, type TableComposition, tableOptions } from '../shared/composition';
import type { EventsConfig } from '../shared/config';
import { createEventsConsumer, type EventsHandler } from './consumer';

export interface EventsComposition extends TableComposition<EventsConfig> {
  readonly sqs: SQSClient;
}

/** The `ledger-events` consumer on its event store, dead-lettering to `ledger-events-dlq`. */
export function composeEventsHandler(options: EventsComposition): EventsHandler {
  const { config } = options;
  const { clock, log, metrics, newId } = resolveRuntime(options);
  return createEventsConsumer({
    events: new EventService(createEventStore(tableOptions(options, metrics)), {
      inboxRetentionSeconds: config.inboxRetentionSeconds,
      newId,
    }),
    deadLetters: createSqsDeadLetters(options.sqs, config.deadLetterQueueUrl),
    clock,
    log,
    metrics,
  });
}
