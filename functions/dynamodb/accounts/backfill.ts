import {
  ConditionalCheckFailedException,
  type DynamoDBClient,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { ACCOUNT_ITEM_KIND } from '../../contract/names';
import { ACCOUNT_INDEX, accountIndexAttributes } from '../table/account-index';
import { keys } from '../table/keys';
import { getItem } from '../table/reads';
import { scanPages } from '../table/scan';
import { storageError } from '../table/sdk-errors';

export interface AccountsBackfillPage {
  /** Accounts on this page without their directory keys. */
  readonly seen: number;
  /** Given their directory keys now (the rest: gone, or re-owned throughout; run again). */
  readonly indexed: number;
}

/** Attempts per account: a re-own between the read and the write makes it read again. */
const ATTEMPTS = 3;

/**
 * Puts the accounts created before the account directory (../table/account-index.ts) into it
 * (docs/operations.md "Account directory backfill"): every account item without `accountsAt`
 * gets the keys a new account is written with, its owner key from the owner it has at the
 * write (conditional on the owner read, so a concurrent re-own is never undone). Idempotent: a
 * second run finds nothing. A Scan, page by page (operators run it once after the upgrade).
 */
export async function backfillAccountDirectory(
  options: { readonly client: DynamoDBClient; readonly tableName: string },
  onPage: (page: AccountsBackfillPage) => void,
  signal?: AbortSignal,
): Promise<AccountsBackfillPage> {
  const { client, tableName } = options;
  const total = { seen: 0, indexed: 0 };
  await scanPages(
    client,
    {
      TableName: tableName,
      FilterExpression: '#kind = :kind AND attribute_not_exists(#at)',
      ExpressionAttributeNames: { '#kind': 'kind', '#at': ACCOUNT_INDEX.atAttribute },
      ExpressionAttributeValues: marshall({ ':kind': ACCOUNT_ITEM_KIND }),
      ConsistentRead: true,
    },
    async (items) => {
      const counts = { seen: items.length, indexed: 0 };
      for (const item of items) {
        if (await indexAccount(client, tableName, item)) counts.indexed++;
      }
      total.seen += counts.seen;
      total.indexed += counts.indexed;
      onPage(counts);
    },
    { signal },
  );
  return total;
}

/** True when this call wrote the keys; false when the account is gone or already indexed. */
async function indexAccount(
  client: DynamoDBClient,
  tableName: string,
  read: Record<string, unknown>,
): Promise<boolean> {
  let item: Record<string, unknown> | undefined = read;
  for (let attempt = 1; item && attempt <= ATTEMPTS; attempt++) {
    if (item[ACCOUNT_INDEX.atAttribute] !== undefined) return false;
    const attributes = accountIndexAttributes({
      id: String(item.id),
      ownerId: String(item.ownerId),
      ...(typeof item.name === 'string' ? { name: item.name } : {}),
      createdAt: String(item.createdAt),
    });
    const names = Object.keys(attributes);
    try {
      await client.send(
        new UpdateItemCommand({
          TableName: tableName,
          Key: marshall(keys.account(String(item.id))),
          UpdateExpression: `SET ${names.map((_, i) => `#a${i} = :a${i}`).join(', ')}`,
          ConditionExpression: 'attribute_exists(pk) AND #ownerId = :ownerId',
          ExpressionAttributeNames: {
            '#ownerId': 'ownerId',
            ...Object.fromEntries(names.map((name, i) => [`#a${i}`, name])),
          },
          ExpressionAttributeValues: marshall({
            ':ownerId': item.ownerId,
            ...Object.fromEntries(names.map((name, i) => [`:a${i}`, attributes[name]])),
          }),
        }),
      );
      return true;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw storageError(error);
    }
    item = await getItem(client, tableName, keys.account(String(item.id)));
  }
  // Re-owned on every attempt: left for the next run, which finds it again.
  return false;
}
