import type { SQSClient } from '@aws-sdk/client-sqs';
import { createSqsDeadLetters } from '../../aws/sqs/dead-letters';
import { EventService } from '../../domain/events/service';
import type { OptimisticRetryOptions } from '../../domain/shared/retry';
import { createEventStore } from '../../dynamodb/events/store';
import { createMovementStore } from '../../dynamodb/movements/store';
import { resolveRuntime, type TableComposition, tableOptions } from '../shared/composition';
import type { EventsConfig } from '../shared/config';
import { createEventsConsumer, type EventsHandler } from './consumer';

export interface EventsComposition extends TableComposition<EventsConfig> {
  readonly sqs: SQSClient;
  /**
   * The new, valid records of one account in a batch commit together (docs/contract.md §20);
   * false applies each record on its own, as before batching (the bench's baseline).
   * @default true
   */
  readonly batchWrites?: boolean;
  /** The backoff of the sequence item's read → write loop; the defaults are the production ones. */
  readonly sequenceRetry?: OptimisticRetryOptions;
}

/**
 * The `ledger-events` consumer on its event store, dead-lettering to `ledger-events-dlq`. Its
 * writes retry until the invocation's deadline (the consumer sets it from the Lambda's time
 * left), not for a fixed budget each: a chunk of a hot account waits its turn as long as the
 * function can (docs/contract.md §20).
 */
export function composeEventsHandler(options: EventsComposition): EventsHandler {
  const { config } = options;
  const { clock, log, metrics, newId } = resolveRuntime(options);
  const untilDeadline = { budgetMs: Number.POSITIVE_INFINITY };
  const table = tableOptions(
    { ...options, retry: { ...untilDeadline, ...options.retry } },
    metrics,
  );
  return createEventsConsumer({
    events: new EventService(createEventStore(table), createMovementStore(table), {
      ...untilDeadline,
      ...options.sequenceRetry,
      inboxRetentionSeconds: config.inboxRetentionSeconds,
      gapRefetchAfterSeconds: config.gapRefetchAfterSeconds,
      backdateLimitDays: config.backdateLimitDays,
      newId,
    }),
    deadLetters: createSqsDeadLetters(options.sqs, config.deadLetterQueueUrl),
    clock,
    log,
    metrics,
    batchWrites: options.batchWrites ?? true,
  });
}
