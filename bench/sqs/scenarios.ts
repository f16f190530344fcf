/** The SQS consumer on batches of 10 new ledger events, over 10 accounts or one. */
import { randomUUID } from 'node:crypto';
import { type DynamoDBClient, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { ledgerEvent, sqsEvent, sqsRecord } from '../../kit/ledger-events';
import type { LatencyProxy } from '../latency-proxy';

export const BATCH_SIZE = 10;

export interface SqsSide {
  readonly name: string;
  readonly consume: (event: SQSEvent) => Promise<SQSBatchResponse>;
  /** At least {@link BATCH_SIZE} accounts of this side. */
  readonly accounts: readonly string[];
}

export interface SqsRound {
  readonly recordsPerSecond: number;
  readonly callsPerRecord: number;
}

function batch(accounts: readonly string[], spread: number) {
  return sqsEvent(
    ...Array.from({ length: BATCH_SIZE }, (_, i) =>
      sqsRecord(ledgerEvent({ subject: accounts[i % spread] as string, source: 'urn:bench' })),
    ),
  );
}

/** `batches` batches one after another, each over `spread` accounts (1 or 10). */
export async function sqsRound(
  side: SqsSide,
  spread: number,
  batches: number,
  proxy: LatencyProxy,
): Promise<SqsRound> {
  const events = Array.from({ length: batches }, () => batch(side.accounts, spread));
  const before = proxy.total();
  const start = performance.now();
  for (const event of events) {
    const { batchItemFailures } = await side.consume(event);
    if (batchItemFailures.length > 0) {
      throw new Error(`${side.name}: ${batchItemFailures.length} records failed in a batch`);
    }
  }
  const seconds = (performance.now() - start) / 1000;
  const records = batches * BATCH_SIZE;
  return {
    recordsPerSecond: records / seconds,
    callsPerRecord: (proxy.total() - before) / records,
  };
}

/**
 * The most any consumer can gain from concurrency here: 10 raw 3-item transactions on distinct
 * new items, one after another vs all at once, through the same proxy. Returns sequential time
 * divided by concurrent time (10 = fully parallel; 1 = the emulator serialises transactions).
 */
export async function transactionCeilingRound(
  client: DynamoDBClient,
  tableName: string,
): Promise<number> {
  const transaction = () =>
    client.send(
      new TransactWriteItemsCommand({
        TransactItems: [0, 1, 2].map(() => ({
          Put: {
            TableName: tableName,
            Item: { pk: { S: `CEILING#${randomUUID()}` }, sk: { S: 'CEILING' } },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        })),
      }),
    );
  let start = performance.now();
  for (let i = 0; i < BATCH_SIZE; i++) await transaction();
  const sequential = performance.now() - start;
  start = performance.now();
  await Promise.all(Array.from({ length: BATCH_SIZE }, transaction));
  return sequential / (performance.now() - start);
}
