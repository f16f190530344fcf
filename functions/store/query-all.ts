import {
  type AttributeValue,
  type DynamoDBClient,
  QueryCommand,
  type QueryCommandInput,
} from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { storageError } from './sdk-errors';

/** Every item of a Query, following LastEvaluatedKey across DynamoDB's 1 MB pages. */
export async function queryAll(
  client: DynamoDBClient,
  input: Omit<QueryCommandInput, 'ExclusiveStartKey'>,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, AttributeValue> | undefined;
  try {
    do {
      const page = await client.send(
        new QueryCommand({ ...input, ...(startKey ? { ExclusiveStartKey: startKey } : {}) }),
      );
      for (const raw of page.Items ?? []) items.push(unmarshall(raw));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return items;
  } catch (error) {
    throw storageError(error);
  }
}
