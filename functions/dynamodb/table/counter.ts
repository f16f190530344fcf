import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { toAttributes } from './attributes';
import type { ItemKey } from './keys';

/**
 * A bounded counter item (monitors per account §28, webhook endpoints per principal §32): up by
 * one only below `max`, created on first use with its `kind`.
 */
export const counterUpItem = (
  tableName: string,
  key: ItemKey,
  max: number,
  kind: string,
): TransactWriteItem => ({
  Update: {
    TableName: tableName,
    Key: toAttributes(key),
    UpdateExpression: 'SET #count = if_not_exists(#count, :zero) + :one, #kind = :kind',
    ConditionExpression: 'attribute_not_exists(#count) OR #count < :max',
    ExpressionAttributeNames: { '#count': 'count', '#kind': 'kind' },
    ExpressionAttributeValues: toAttributes({ ':zero': 0, ':one': 1, ':max': max, ':kind': kind }),
  },
});

/** The counter down by one, never below zero (with the counted item's removal). */
export const counterDownItem = (tableName: string, key: ItemKey): TransactWriteItem => ({
  Update: {
    TableName: tableName,
    Key: toAttributes(key),
    UpdateExpression: 'SET #count = #count - :one',
    ConditionExpression: '#count > :zero',
    ExpressionAttributeNames: { '#count': 'count' },
    ExpressionAttributeValues: toAttributes({ ':zero': 0, ':one': 1 }),
  },
});
