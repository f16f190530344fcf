import {
  type AttributeDefinition,
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  type GlobalSecondaryIndex,
  ResourceInUseException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { sleep } from '../../../functions/domain/shared/retry';
import { type TableIndex, tableIndexes } from '../../../functions/dynamodb/table/indexes';
import { TTL_ATTRIBUTE } from '../../../functions/dynamodb/table/keys';

/** An index of functions/dynamodb/table/indexes.ts, as DynamoDB's API spells it. */
function indexSpec(index: TableIndex): GlobalSecondaryIndex {
  return {
    IndexName: index.name,
    KeySchema: [
      { AttributeName: index.partitionKey.name, KeyType: 'HASH' },
      { AttributeName: index.sortKey.name, KeyType: 'RANGE' },
    ],
    Projection: { ProjectionType: index.projection },
  };
}

/** The indexes a table has, each with the attributes its keys need. */
const specsOf = (
  indexes: readonly TableIndex[],
): readonly { spec: GlobalSecondaryIndex; attributes: AttributeDefinition[] }[] =>
  indexes.map((index) => ({
    spec: indexSpec(index),
    attributes: [index.partitionKey, index.sortKey].map((key) => ({
      AttributeName: key.name,
      AttributeType: key.type,
    })),
  }));

export interface LedgerTableOptions {
  /**
   * The table's stream, which the journal projector and the outbox dispatcher read. A test that
   * runs neither may leave it off: DynamoDB Local keeps every stream record, and each write costs
   * more as they pile up. @default true
   */
  readonly stream?: boolean;
  /**
   * How many of the account directory's indexes the table has (`tableIndexes`): a test of a
   * stage mid-upgrade (docs/deployment.md "Upgrading to the account directory") makes fewer.
   * @default all
   */
  readonly directoryIndexes?: number;
}

/**
 * Creates the single ledger table as the CDK stateful stack defines it (pk/sk strings,
 * on-demand, TTL on `expiresAt`, the indexes of functions/dynamodb/table/indexes.ts). When it already exists,
 * only adds the indexes a table from before them lacks.
 */
export async function ensureLedgerTable(
  client: DynamoDBClient,
  tableName: string,
  options: LedgerTableOptions = {},
): Promise<void> {
  const indexes = specsOf(tableIndexes(options.directoryIndexes));
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'sk', AttributeType: 'S' },
          // An attribute keys several indexes (accountsShard, accountsAt): defined once.
          ...new Map(
            indexes.flatMap((index) => index.attributes).map((a) => [a.AttributeName, a]),
          ).values(),
        ],
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: indexes.map((index) => index.spec),
        ...(options.stream === false
          ? {}
          : { StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' } }),
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
    await ensureIndexes(client, tableName, indexes);
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

/**
 * Adds the indexes a table from before them lacks, one at a time: DynamoDB creates one online
 * index per table at once, so each waits until no index of the table is still being built.
 */
async function ensureIndexes(
  client: DynamoDBClient,
  tableName: string,
  wanted: ReturnType<typeof specsOf>,
): Promise<void> {
  let indexes = await describeIndexes(client, tableName);
  for (const { spec, attributes } of wanted) {
    if (indexes.some((index) => index.IndexName === spec.IndexName)) continue;
    indexes = await untilIndexesActive(client, tableName);
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: attributes,
        GlobalSecondaryIndexUpdates: [{ Create: spec }],
      }),
    );
  }
  await untilIndexesActive(client, tableName);
}

async function describeIndexes(client: DynamoDBClient, tableName: string) {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  return Table?.GlobalSecondaryIndexes ?? [];
}

/** Polls until every index of the table is ACTIVE (at most 30 s); returns them. */
async function untilIndexesActive(client: DynamoDBClient, tableName: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const indexes = await describeIndexes(client, tableName);
    if (indexes.every((index) => index.IndexStatus === 'ACTIVE')) return indexes;
    if (Date.now() > deadline) {
      throw new Error(`the indexes of table ${tableName} did not become ACTIVE within 30 s`);
    }
    await sleep(50);
  }
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
