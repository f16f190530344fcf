import {
  CreateTableCommand,
  type DynamoDBClient,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { TTL_ATTRIBUTE } from '../functions/store/keys';

/**
 * Creates the single ledger table as the CDK stateful stack defines it (pk/sk strings,
 * on-demand, TTL on `expiresAt`). Does nothing when it already exists.
 */
export async function ensureLedgerTable(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'sk', AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
    return;
  }
  await waitUntilTableExists({ client, maxWaitTime: 30 }, { TableName: tableName });
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { Enabled: true, AttributeName: TTL_ATTRIBUTE },
    }),
  );
}
