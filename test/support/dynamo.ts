import { randomUUID } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { inject } from 'vitest';
import { localDynamoClient } from '../../local/services/dynamodb/dynamodb-local';
import { ensureLedgerTable } from '../../local/services/dynamodb/table';

/** A fresh ledger table on the run's shared DynamoDB Local, so test files never see each other. */
export async function createTestTable(): Promise<{
  client: DynamoDBClient;
  tableName: string;
  drop: () => Promise<void>;
}> {
  const client = localDynamoClient(inject('dynamoEndpoint'));
  const tableName = `ledger-test-${randomUUID()}`;
  await ensureLedgerTable(client, tableName);
  return {
    client,
    tableName,
    drop: async () => {
      await client.send(new DeleteTableCommand({ TableName: tableName }));
      client.destroy();
    },
  };
}
