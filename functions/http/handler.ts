import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { loadConfig } from '../config';
import { createLedgerStore } from '../store/ledger-store';
import { createHttpApp } from './app';

// Built once per container: configuration is validated at cold start and fails loudly.
const config = loadConfig(process.env);
const client = new DynamoDBClient({});

export const handler = createHttpApp({
  ledger: createLedgerStore({ client, tableName: config.tableName }),
  config,
});
