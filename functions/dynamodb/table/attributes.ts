import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';

/** Plain values to attribute values; absent optional fields are simply not written. */
export const toAttributes = (value: Record<string, unknown>) =>
  marshall(value, { removeUndefinedValues: true });

/** A Put that only creates: it fails if an item with this key already exists. */
export function putNew(tableName: string, item: Record<string, unknown>): TransactWriteItem {
  return {
    Put: {
      TableName: tableName,
      Item: toAttributes(item),
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}
