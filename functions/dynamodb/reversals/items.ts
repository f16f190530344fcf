import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { OriginalLocation } from '../../domain/accounts/reversal-record';
import type { ReversalWrite } from '../../domain/movements/reversal';
import { type ItemKey, keys } from '../table/keys';
import type { TransactPart } from '../table/transact';

/** The original's guard (`original`) and, for an entry with a pointer, its mirror (`mirror`). */
export type ReversalRole = 'original' | 'mirror';

/** The item that holds an original's `reversedAmount` and guards its reversals. */
function guardKey(location: OriginalLocation): ItemKey {
  switch (location.kind) {
    case 'entry': {
      const { entry, pointer } = location;
      return pointer
        ? keys.entryPointer(entry.id)
        : keys.entry(entry.accountId, entry.createdAt, entry.id);
    }
    case 'transfer':
      return keys.transfer(location.id);
    case 'ledger_transaction':
      return keys.ledgerTransaction(location.id);
  }
}

/**
 * `reversedAmount += :this`, only while the reversals so far leave room for it:
 * `reversedAmount ≤ amount − :this` (absent counts as 0). Racing reversals are serialised by
 * DynamoDB on this one item, so together they never exceed the original (docs/contract.md §16).
 */
function addReversed(
  tableName: string,
  key: ItemKey,
  reversing: number,
  limit?: number,
): TransactWriteItem {
  const guarded = limit !== undefined;
  return {
    Update: {
      TableName: tableName,
      Key: marshall(key),
      UpdateExpression: 'SET #reversed = if_not_exists(#reversed, :zero) + :this',
      ConditionExpression: guarded
        ? 'attribute_exists(pk) AND (attribute_not_exists(#reversed) OR #reversed <= :limit)'
        : 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#reversed': 'reversedAmount' },
      ExpressionAttributeValues: marshall({
        ':zero': 0,
        ':this': reversing,
        ...(guarded ? { ':limit': limit } : {}),
      }),
      ...(guarded ? { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {}),
    },
  };
}

/**
 * The original's guarded update; for an entry found through its pointer, the same Δ on the
 * entry in its account's listing, which reads show (both move in every reversal, so they stay
 * equal). The legs moved back are the movement store's (`dynamodb/movements/store.ts`).
 */
export function reversalGuardParts(
  tableName: string,
  write: ReversalWrite,
): TransactPart<ReversalRole>[] {
  const { location, amount, reversing } = write.original;
  const parts: TransactPart<ReversalRole>[] = [
    {
      role: 'original',
      item: addReversed(tableName, guardKey(location), reversing, amount - reversing),
    },
  ];
  if (location.kind === 'entry' && location.pointer) {
    const { entry } = location;
    const listed = keys.entry(entry.accountId, entry.createdAt, entry.id);
    parts.push({ role: 'mirror', item: addReversed(tableName, listed, reversing) });
  }
  return parts;
}
