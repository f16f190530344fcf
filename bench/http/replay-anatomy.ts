/**
 * Why a replay that misses the cache costs what it costs: the raw DynamoDB calls behind each
 * side's replay, timed through the same proxy. Powertools replays with a conditional PutItem that
 * fails; ours is a 3-item TransactWriteItems cancelled by its claim. The variants show what the
 * claim's shape and the returned old item (the projection of the cancellation reason) add.
 */
import { randomUUID } from 'node:crypto';
import {
  ConditionalCheckFailedException,
  type DynamoDBClient,
  PutItemCommand,
  TransactionCanceledException,
  type TransactWriteItem,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { median } from '../stats';

export const REPLAY_SHAPES = {
  putFails: 'PutItem, condition fails, ALL_OLD (Powertools replay)',
  oneItemCancelled: 'TransactWriteItems of the claim alone, cancelled, ALL_OLD',
  cancelled: 'TransactWriteItems claim + balance + entry, cancelled, ALL_OLD (our replay)',
  cancelledNoOld: 'same, without ALL_OLD',
  cancelledBareClaim: 'same, claim item stored without the response body',
} as const;
export type ReplayShape = keyof typeof REPLAY_SHAPES;

const BODY = JSON.stringify({ id: randomUUID(), accountId: randomUUID(), type: 'credit' });

function claim(pk: string, returnOld: boolean, withBody = true): TransactWriteItem['Put'] & {} {
  return {
    TableName: '',
    Item: {
      pk: { S: pk },
      sk: { S: 'IDEMPOTENCY' },
      fingerprint: { S: 'f'.repeat(64) },
      statusCode: { N: '201' },
      ...(withBody ? { body: { S: BODY } } : {}),
      expiresAt: { N: '4000000000' },
    },
    ConditionExpression: 'attribute_not_exists(pk) OR #expiresAt < :now',
    ExpressionAttributeNames: { '#expiresAt': 'expiresAt' },
    ExpressionAttributeValues: { ':now': { N: '1' } },
    ...(returnOld ? { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {}),
  };
}

/** Median ms per shape for one round of `requests` calls each. */
export async function replayAnatomyRound(
  client: DynamoDBClient,
  tableName: string,
  requests: number,
  round: number,
): Promise<Record<ReplayShape, number>> {
  const key = `IDEMPOTENCY#${randomUUID()}`;
  const bareKey = `IDEMPOTENCY#${randomUUID()}`;
  const account = `ACCOUNT#${randomUUID()}`;
  const put = (item: TransactWriteItem['Put'] & {}) => ({ ...item, TableName: tableName });
  await client.send(new PutItemCommand(put(claim(key, false))));
  await client.send(new PutItemCommand(put(claim(bareKey, false, false))));
  await client.send(
    new PutItemCommand({
      TableName: tableName,
      Item: { pk: { S: account }, sk: { S: 'ACCOUNT' }, balance: { N: '0' } },
    }),
  );
  const withEffects = (first: TransactWriteItem['Put'] & {}): TransactWriteItem[] => [
    { Put: put(first) },
    {
      Update: {
        TableName: tableName,
        Key: { pk: { S: account }, sk: { S: 'ACCOUNT' } },
        UpdateExpression: 'SET balance = balance + :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':one': { N: '1' } },
      },
    },
    {
      Put: {
        TableName: tableName,
        Item: { pk: { S: account }, sk: { S: `ENTRY#${randomUUID()}` }, body: { S: BODY } },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
  const cancelled = (items: TransactWriteItem[]) => () =>
    client.send(new TransactWriteItemsCommand({ TransactItems: items })).then(
      () => {
        throw new Error('a replay shape committed');
      },
      (error) => {
        if (!(error instanceof TransactionCanceledException)) throw error;
      },
    );
  const shapes: Record<ReplayShape, () => Promise<unknown>> = {
    putFails: () =>
      client.send(new PutItemCommand(put(claim(key, true)))).then(
        () => {
          throw new Error('a replay shape committed');
        },
        (error) => {
          if (!(error instanceof ConditionalCheckFailedException)) throw error;
        },
      ),
    oneItemCancelled: cancelled([{ Put: put(claim(key, true)) }]),
    cancelled: cancelled(withEffects(claim(key, true))),
    cancelledNoOld: cancelled(withEffects(claim(key, false))),
    cancelledBareClaim: cancelled(withEffects(claim(bareKey, true, false))),
  };
  const result = {} as Record<ReplayShape, number>;
  const order = Object.entries(shapes) as [ReplayShape, () => Promise<unknown>][];
  if (round % 2 === 1) order.reverse();
  for (const [shape, call] of order) {
    const samples: number[] = [];
    for (let i = 0; i < requests; i++) {
      const start = performance.now();
      await call();
      samples.push(performance.now() - start);
    }
    result[shape] = median(samples);
  }
  return result;
}
