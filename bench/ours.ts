/**
 * Our side of the bench: the same compositions the Lambda handlers use, on a client that talks
 * through the latency proxy. Logs and metrics are silenced on both sides alike.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { ServiceConfig } from '../functions/config';
import { EventService } from '../functions/core/event-service';
import { createEventsConsumer } from '../functions/events/consumer';
import { createDynamoHttpApp } from '../functions/http/dynamo-app';
import type { HttpHandler } from '../functions/http/types';
import type { Log } from '../functions/observability/log';
import { staticCallbackSecrets } from '../functions/secrets/callback-secrets';
import { createEventStore } from '../functions/store/event-store';

export const SILENT_LOG: Log = { info: () => {}, warn: () => {}, error: () => {} };

export function benchConfig(tableName: string, localCache = false): ServiceConfig {
  return {
    tableName,
    idempotencyLocalCache: localCache,
    idempotencyRetentionSeconds: 3600,
    inboxRetentionSeconds: 3600,
    exportFee: 100,
    callbackApplicationId: 'bench',
  };
}

/** Our HTTP function; its settled-response cache only when `localCache` (replay targets count misses). */
export function createOurHttp(
  client: DynamoDBClient,
  tableName: string,
  localCache = false,
): HttpHandler {
  return createDynamoHttpApp({
    client,
    config: benchConfig(tableName, localCache),
    callbackSecrets: staticCallbackSecrets('{}'),
    log: SILENT_LOG,
  });
}

export function createOurConsumer(
  client: DynamoDBClient,
  tableName: string,
): (event: SQSEvent) => Promise<SQSBatchResponse> {
  const store = createEventStore({ client, tableName });
  return createEventsConsumer({
    events: new EventService(store, { inboxRetentionSeconds: 3600 }),
    deadLetters: {
      send: async (letter) => {
        throw new Error(`bench events must not be dead-lettered: ${letter.code} ${letter.detail}`);
      },
    },
    log: SILENT_LOG,
  });
}
