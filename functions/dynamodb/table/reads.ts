import {
  type AttributeValue,
  BatchGetItemCommand,
  type DynamoDBClient,
  GetItemCommand,
  QueryCommand,
  type QueryCommandInput,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { UnavailableError } from '../../domain/shared/errors';
import type { ItemKey } from './keys';
import { storageError } from './sdk-errors';

/** One item by key, strongly consistent; undefined when it does not exist. */
export async function getItem(
  client: DynamoDBClient,
  tableName: string,
  key: ItemKey,
): Promise<Record<string, unknown> | undefined> {
  try {
    const { Item } = await client.send(
      new GetItemCommand({ TableName: tableName, Key: marshall(key), ConsistentRead: true }),
    );
    return Item ? unmarshall(Item) : undefined;
  } catch (error) {
    throw storageError(error);
  }
}

/**
 * Every page of a Query, following LastEvaluatedKey across DynamoDB's 1 MB pages, handed to
 * `onPage` and dropped: at most one page is held, however many the query spans.
 */
export async function queryEach(
  client: DynamoDBClient,
  input: Omit<QueryCommandInput, 'ExclusiveStartKey'>,
  onPage: (items: Record<string, unknown>[]) => void,
): Promise<void> {
  let startKey: Record<string, AttributeValue> | undefined;
  try {
    do {
      const page = await client.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
      onPage((page.Items ?? []).map((raw) => unmarshall(raw)));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  } catch (error) {
    throw storageError(error);
  }
}

/** Every item of a Query, following LastEvaluatedKey across DynamoDB's 1 MB pages. */
export async function queryAll(
  client: DynamoDBClient,
  input: Omit<QueryCommandInput, 'ExclusiveStartKey'>,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  await queryEach(client, input, (page) => items.push(...page));
  return items;
}

/** Unprocessed keys are asked for again this many times before the read counts as unavailable. */
const BATCH_GET_ROUNDS = 5;

/**
 * Items by key (at most 100), strongly consistent, in the order of `list`; undefined where an
 * item does not exist. One BatchGetItem, plus another round for any keys DynamoDB left
 * unprocessed (it may, under load).
 */
export async function getItems(
  client: DynamoDBClient,
  tableName: string,
  list: readonly ItemKey[],
): Promise<(Record<string, unknown> | undefined)[]> {
  const found = new Map<string, Record<string, unknown>>();
  const id = (key: { pk: unknown; sk: unknown }) => JSON.stringify([key.pk, key.sk]);
  let pending: Record<string, AttributeValue>[] = list.map((key) => marshall(key));
  try {
    for (let round = 0; pending.length > 0; round++) {
      if (round === BATCH_GET_ROUNDS)
        throw new UnavailableError(new Error('keys left unprocessed'));
      const { Responses, UnprocessedKeys } = await client.send(
        new BatchGetItemCommand({
          RequestItems: { [tableName]: { Keys: pending, ConsistentRead: true } },
        }),
      );
      for (const raw of Responses?.[tableName] ?? []) {
        const item = unmarshall(raw);
        found.set(id(item as { pk: unknown; sk: unknown }), item);
      }
      pending = UnprocessedKeys?.[tableName]?.Keys ?? [];
    }
  } catch (error) {
    throw error instanceof UnavailableError ? error : storageError(error);
  }
  return list.map((key) => found.get(id(key)));
}
