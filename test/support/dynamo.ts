import { randomUUID } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { startDynamoLocalOnFreePort } from '../../kit/dynamo-local';
import { localDynamoClient } from '../../local/services/dynamodb/dynamodb-local';
import { ensureLedgerTable } from '../../local/services/dynamodb/table';
import { dynamoEndpoint } from './dynamo-lease';

/**
 * A fresh ledger table on the DynamoDB Local this file leased, so test files never see each other.
 * `own: true` starts a DynamoDB Local of its own for a file that writes tens of thousands of
 * items: DynamoDB Local keeps every stream record, and each later write on ANY of its tables
 * slows as they pile up (docs/architecture.md "Testing notes"), which timed out the files beside it.
 * `stream: true` for a file that runs a stream reader (journal projector, outbox dispatcher);
 * without one a table has no stream, so its writes leave no stream records behind: a stream
 * doubles what each write costs DynamoDB Local, and the cost grows with every record it keeps
 * (docs/architecture.md "Testing notes").
 */
export async function createTestTable(
  options: { readonly own?: boolean; readonly stream?: boolean } = {},
): Promise<{
  client: DynamoDBClient;
  tableName: string;
  drop: () => Promise<void>;
}> {
  const own = options.own ? await startDynamoLocalOnFreePort() : undefined;
  const client = localDynamoClient(own?.endpoint ?? dynamoEndpoint());
  const tableName = `ledger-test-${randomUUID()}`;
  await ensureLedgerTable(client, tableName, { stream: options.stream ?? false });
  return {
    client,
    tableName,
    drop: async () => {
      await client.send(new DeleteTableCommand({ TableName: tableName }));
      client.destroy();
      await own?.stop();
    },
  };
}
