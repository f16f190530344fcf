import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { ServiceConfig } from '../../functions/config';
import { EventService } from '../../functions/core/event-service';
import { createEventsConsumer, type EventsHandler } from '../../functions/events/consumer';
import type { Log } from '../../functions/observability/log';
import { createSqsDeadLetters } from '../../functions/queue/dead-letter';
import { createEventStore } from '../../functions/store/event-store';

/**
 * The one place the local stack wires the real ledger-events consumer: the same handler the
 * Lambda runs (functions/events/handler.ts), built on the local DynamoDB and SQS clients.
 */
export function buildEventsHandler(deps: {
  dynamoClient: DynamoDBClient;
  sqsClient: SQSClient;
  dlqUrl: string;
  config: ServiceConfig;
  log?: Log;
}): EventsHandler {
  const { dynamoClient, sqsClient, dlqUrl, config } = deps;
  return createEventsConsumer({
    events: new EventService(
      createEventStore({ client: dynamoClient, tableName: config.tableName }),
      {
        inboxRetentionSeconds: config.inboxRetentionSeconds,
      },
    ),
    deadLetters: createSqsDeadLetters(sqsClient, dlqUrl),
    ...(deps.log ? { log: deps.log } : {}),
  });
}
