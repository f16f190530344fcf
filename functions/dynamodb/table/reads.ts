import {
  type AttributeValue,
  type DynamoDBClient,
  GetItemCommand,
  QueryCommand,
  type QueryCommandInput,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
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

/** Every item of a Query, following LastEvaluatedKey across DynamoDB's 1 MB pages. */
export async function queryAll(
  client: DynamoDBClient,
  input: Omit<QueryCommandInput, 'ExclusiveStartKey'>,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, AttributeValue> | undefined;
  try {
    do {
      const page = await client.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
      for (const raw of page.Items ?? []) items.push(unmarshall(raw));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return items;
  } catch (error) {
    throw storageError(error);
  }
}
