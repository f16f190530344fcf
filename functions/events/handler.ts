import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import * as z from 'zod';
import { loadConfig } from '../config';
import { EventService } from '../core/event-service';
import { countRetry, SERVICE_NAMES } from '../observability/metrics';
import { lambdaTelemetry } from '../observability/powertools';
import { createSqsDeadLetters } from '../queue/dead-letter';
import { createEventStore } from '../store/event-store';
import { createEventsConsumer } from './consumer';

// Built once per container; a missing variable fails the cold start loudly.
const config = loadConfig(process.env);
const dlqUrl = z.url().parse(process.env.DLQ_URL, { error: () => 'DLQ_URL must be the DLQ URL' });
const telemetry = lambdaTelemetry(SERVICE_NAMES.events);

const store = createEventStore({
  client: new DynamoDBClient({}),
  tableName: config.tableName,
  retry: { onRetry: countRetry(telemetry.metrics) },
});

export const handler = telemetry.instrument(
  createEventsConsumer({
    events: new EventService(store, { inboxRetentionSeconds: config.inboxRetentionSeconds }),
    deadLetters: createSqsDeadLetters(new SQSClient({}), dlqUrl),
    log: telemetry.log,
    metrics: telemetry.metrics,
  }),
);
