import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { z } from 'zod';
import { loadConfig } from '../config';
import { EventService } from '../core/event-service';
import { createSqsDeadLetters } from '../queue/dead-letter';
import { createEventStore } from '../store/event-store';
import { createEventsConsumer } from './consumer';

// Built once per container; a missing variable fails the cold start loudly.
const config = loadConfig(process.env);
const dlqUrl = z.url().parse(process.env.DLQ_URL, { error: () => 'DLQ_URL must be the DLQ URL' });

export const handler = createEventsConsumer({
  events: new EventService(
    createEventStore({ client: new DynamoDBClient({}), tableName: config.tableName }),
    {
      inboxRetentionSeconds: config.inboxRetentionSeconds,
    },
  ),
  deadLetters: createSqsDeadLetters(new SQSClient({}), dlqUrl),
});
