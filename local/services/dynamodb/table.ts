import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  type GlobalSecondaryIndex,
  ResourceInUseException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { DUE_INDEX } from '../../../functions/dynamodb/table/due-index';
import { TTL_ATTRIBUTE } from '../../../functions/dynamodb/table/keys';

/** The sweeper's sparse due index, as lib/constructs/shared/ledger-table.ts defines it. */
const DUE_INDEX_SPEC: GlobalSecondaryIndex = {
  IndexName: DUE_INDEX.name,
  KeySchema: [
    { AttributeName: DUE_INDEX.shardAttribute, KeyType: 'HASH' },
    { AttributeName: DUE_INDEX.dueAtAttribute, KeyType: 'RANGE' },
  ],
  Projection: { ProjectionType: 'ALL' },
};

const DUE_INDEX_ATTRIBUTES = [
  { AttributeName: DUE_INDEX.shardAttribute, AttributeType: 'N' as const },
  { AttributeName: DUE_INDEX.dueAtAttribute, AttributeType: 'N' as const },
];

/**
 * Creates the single ledger table as the CDK stateful stack defines it (pk/sk strings,
 * on-demand, TTL on `expiresAt`, the due index). When it already exists, only adds the due
 * index if a table from before the index lacks it.
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
          ...DUE_INDEX_ATTRIBUTES,
        ],
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: [DUE_INDEX_SPEC],
        StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
    await ensureDueIndex(client, tableName);
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

async function ensureDueIndex(client: DynamoDBClient, tableName: string): Promise<void> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const present = (Table?.GlobalSecondaryIndexes ?? []).some(
    (index) => index.IndexName === DUE_INDEX.name,
  );
  if (present) return;
  await client.send(
    new UpdateTableCommand({
      TableName: tableName,
      AttributeDefinitions: DUE_INDEX_ATTRIBUTES,
      GlobalSecondaryIndexUpdates: [{ Create: DUE_INDEX_SPEC }],
    }),
  );
}

/** DescribeTable → the table's current stream; fails when streams are not enabled. */
export async function resolveStreamArn(
  client: DynamoDBClient,
  tableName: string,
  signal?: AbortSignal,
): Promise<string> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }), {
    abortSignal: signal,
  });
  const arn = Table?.LatestStreamArn;
  if (!arn || Table?.StreamSpecification?.StreamEnabled === false) {
    throw new Error(`table ${tableName} has no stream; its stream consumers need one`);
  }
  return arn;
}
