import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { ServiceConfig } from '../../functions/config';
import { createHttpApp } from '../../functions/http/app';
import type { HttpHandler } from '../../functions/http/types';
import { createLedgerStore } from '../../functions/store/ledger-store';

/**
 * The one place the local stack wires the real HTTP app: the same handler the Lambda runs,
 * built on the local DynamoDB client.
 */
export function buildHttpHandler(deps: {
  dynamoClient: DynamoDBClient;
  config: ServiceConfig;
}): HttpHandler {
  const { dynamoClient, config } = deps;
  // Same wiring as the Lambda entry point (functions/http/handler.ts).
  const ledger = createLedgerStore({ client: dynamoClient, tableName: config.tableName });
  return createHttpApp({ ledger, config });
}
