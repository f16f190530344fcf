import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { PendingCredit } from '../../domain/accounts/pending-credits';
import { setAsideFinding } from '../../domain/intake/set-aside';
import { putNew } from '../table/attributes';
import { findingAttributes } from '../table/findings';
import { keys } from '../table/keys';
import { retryPolicy, type StoreOptions, transactWithRetry } from '../table/transact';
import { setAsideCreditItem } from './items';

/** The pending item goes, only if still there: a second folder's delete fails instead. */
export function removePendingItem(tableName: string, credit: PendingCredit): TransactWriteItem {
  const { entry, shard, acceptedAt } = credit;
  return {
    Delete: {
      TableName: tableName,
      Key: marshall(keys.pendingCredit(entry.accountId, shard, acceptedAt, entry.id)),
      ConditionExpression: 'attribute_exists(pk)',
    },
  };
}

/**
 * A pending credit the folder can never post is set aside (docs/contract.md §24, §36): the
 * pending item's conditional delete, the set-aside item and its reconciliation finding
 * (`set_aside_credit`) in ONE transaction. No money moves
 * (no account item is written), so this is not a write-path transaction: `gone` when another
 * folder took the pending item first.
 */
export async function setAsideCredit(
  options: StoreOptions,
  credit: PendingCredit,
  reason: string,
  at: string,
): Promise<'set_aside' | 'gone'> {
  const { client, tableName } = options;
  const outcome = await transactWithRetry(
    client,
    [
      { role: 'pending', item: removePendingItem(tableName, credit), decisive: true },
      { role: 'set_aside', item: setAsideCreditItem(tableName, credit, reason, at) },
      {
        role: 'finding',
        item: putNew(tableName, findingAttributes(setAsideFinding(credit, reason, at))),
      },
    ],
    retryPolicy(options),
  );
  return outcome.kind === 'committed' ? 'set_aside' : 'gone';
}
