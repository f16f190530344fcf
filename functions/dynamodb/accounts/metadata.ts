import type { DynamoDBClient, TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { ACCOUNT_METADATA_ITEM_KIND } from '../../contract/names';
import { type Metadata, sameMetadata } from '../../domain/accounts/metadata';
import type { AccountRecord } from '../../domain/accounts/model';
import { toAttributes } from '../table/attributes';
import { keys } from '../table/keys';
import { getItem } from '../table/reads';

/**
 * An account's metadata in its own item (docs/contract.md §34): movements never read or write
 * it, so the hot account item stays as small as before. Written with the account at creation
 * and by settings (put, or deleted when cleared), in their one transaction.
 */
export function metadataItem(tableName: string, account: AccountRecord): TransactWriteItem {
  return {
    Put: {
      TableName: tableName,
      Item: toAttributes({
        ...keys.accountMetadata(account.id),
        kind: ACCOUNT_METADATA_ITEM_KIND,
        accountId: account.id,
        ownerId: account.ownerId,
        metadata: account.metadata,
        updatedAt: account.updatedAt,
      }),
    },
  };
}

/** The settings part that takes the metadata item from `read` to `next`, if it changed. */
export function metadataChange(
  tableName: string,
  read: AccountRecord,
  next: AccountRecord,
): TransactWriteItem | undefined {
  if (sameMetadata(read.metadata, next.metadata)) return undefined;
  if (next.metadata !== undefined) return metadataItem(tableName, next);
  return { Delete: { TableName: tableName, Key: marshall(keys.accountMetadata(read.id)) } };
}

/** The pairs of an item's `metadata`, or undefined for none (only strings count). */
export function toMetadata(value: unknown): Metadata | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const pairs = Object.entries(value).filter(([, v]) => typeof v === 'string');
  return pairs.length === 0 ? undefined : Object.fromEntries(pairs);
}

/** The account's metadata, strongly consistent; undefined when it has none. */
export async function readAccountMetadata(
  client: DynamoDBClient,
  tableName: string,
  accountId: string,
): Promise<Metadata | undefined> {
  const item = await getItem(client, tableName, keys.accountMetadata(accountId));
  return toMetadata(item?.metadata);
}
