/**
 * The Powertools baseline as a Lambda entry, for the cold-start comparison only: bundled and
 * imported exactly like our functions (see bench/cold-start/run.ts).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { benchLambdaContext, createPowertoolsCredit } from './powertools-credit';

const credit = createPowertoolsCredit({
  client: new DynamoDBClient({}),
  ledgerTable: process.env.TABLE_NAME ?? 'ledger',
  idempotencyTable: process.env.IDEMPOTENCY_TABLE_NAME ?? 'idempotency',
  retentionSeconds: 3600,
  useLocalCache: false,
});

export const handler: typeof credit = (event, context) =>
  credit(event, context ?? benchLambdaContext());
