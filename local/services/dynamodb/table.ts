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
import { EFFECTIVE_INDEX } from '../../../functions/contract/effective-time';
import { sleep } from '../../../functions/domain/shared/retry';
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

/** Entries by effective time per account (docs/contract.md §26), as the CDK table has it. */
const EFFECTIVE_INDEX_SPEC: GlobalSecondaryIndex = {
  IndexName: EFFECTIVE_INDEX.name,
  KeySchema: [
    { AttributeName: EFFECTIVE_INDEX.accountAttribute, KeyType: 'HASH' },
    { AttributeName: EFFECTIVE_INDEX.keyAttribute, KeyType: 'RANGE' },
  ],
  Projection: { ProjectionType: 'ALL' },
};

const EFFECTIVE_INDEX_ATTRIBUTES = [
  { AttributeName: EFFECTIVE_INDEX.accountAttribute, AttributeType: 'S' as const },
  { AttributeName: EFFECTIVE_INDEX.keyAttribute, AttributeType: 'S' as const },
];

/** Every index the table has, each with the attributes its keys need. */
const INDEXES: readonly { spec: GlobalSecondaryIndex; attributes: AttributeDefinition[] }[] = [
  { spec: DUE_INDEX_SPEC, attributes: DUE_INDEX_ATTRIBUTES },
  { spec: EFFECTIVE_INDEX_SPEC, attributes: EFFECTIVE_INDEX_ATTRIBUTES },
];

export interface LedgerTableOptions {
  /**
   * The table's stream, which the journal projector and the outbox dispatcher read. A test that
   * runs neither may leave it off: DynamoDB Local keeps every stream record, and each write costs
   * more as they pile up. @default true
   */
  readonly stream?: boolean;
}

/**
 * Creates the single ledger table as the CDK stateful stack defines it (pk/sk strings,
 * on-demand, TTL on `expiresAt`, the due and effective-time indexes). When it already exists,
 * only adds the indexes a table from before them lacks.
 */
export async function ensureLedgerTable(
  client: DynamoDBClient,
  tableName: string,
  options: LedgerTableOptions = {},
): Promise<void> {
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'sk', AttributeType: 'S' },
          ...INDEXES.flatMap((index) => index.attributes),
        ],
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: INDEXES.map((index) => index.spec),
        ...(options.stream === false
          ? {}
          : { StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' } }),
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
    await ensureIndexes(client, tableName);
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
async function ensureIndexes(client: DynamoDBClient, tableName: string): Promise<void> {
  let indexes = await describeIndexes(client, tableName);
  for (const { spec, attributes } of INDEXES) {
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
