import {
  ConditionalCheckFailedException,
  DeleteItemCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { toAttributes } from './attributes';
import type { ItemKey } from './keys';
import { storageError } from './sdk-errors';

/**
 * ONE conditional delete of `key` while its `attribute` still equals `value` (a lease's token
 * or run, a marker's sequence). False when it no longer did: the item moved on (another run took
 * the lease over, the account changed again) and stays, which is no error for any caller.
 */
/** `attribute` is a plain name (letters), used as its own placeholder. */
export async function deleteIfStill(
  client: DynamoDBClient,
  tableName: string,
  key: ItemKey,
  attribute: string,
  value: string | number,
): Promise<boolean> {
  try {
    await client.send(
      new DeleteItemCommand({
        TableName: tableName,
        Key: toAttributes(key),
        ConditionExpression: `#${attribute} = :${attribute}`,
        ExpressionAttributeNames: { [`#${attribute}`]: attribute },
        ExpressionAttributeValues: toAttributes({ [`:${attribute}`]: value }),
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw storageError(error);
  }
}
