import { type CancellationReason, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';

/** What DynamoDB sends when a transaction is cancelled: reasons indexed like its items. */
export function cancelled(...reasons: CancellationReason[]): TransactionCanceledException {
  return new TransactionCanceledException({
    message: 'Transaction cancelled, please refer cancellation reasons for specific reasons',
    $metadata: {},
    CancellationReasons: reasons,
  });
}

/** The reason of an item whose condition held. */
export const none: CancellationReason = { Code: 'None' };

/** A failed condition, with the item as it stood (ALL_OLD) when given. */
export const conditionFailed = (item?: Record<string, unknown>): CancellationReason => ({
  Code: 'ConditionalCheckFailed',
  ...(item ? { Item: marshall(item) } : {}),
});
