import { dueShardOf } from './due-index';

/**
 * The console's account directory (docs/contract.md §31): three sparse, KEYS_ONLY indexes of the
 * account items, so "most recent", owner search and name-prefix search read an index, never a
 * Scan. KEYS_ONLY: a balance change rewrites none of them (only the key attributes, written at
 * creation and by a re-own, do); the pages BatchGet the accounts they list.
 *
 * - `accounts` (`accountsShard`, `accountsAt`): every account, newest first within a shard;
 * - `account-owners` (`ownerKey`, `accountsAt`): an owner's accounts, newest first;
 * - `account-names` (`accountsShard`, `nameKey`): named accounts by lower-cased name.
 *
 * Accounts from before the directory carry none of these until `npm run cli --
 * accounts-backfill` (docs/operations.md) writes them.
 */
export const ACCOUNT_INDEX = {
  recent: 'accounts',
  owner: 'account-owners',
  name: 'account-names',
  /** `ACCOUNTS#<0 … ACCOUNT_SHARD_COUNT − 1>`: spreads account creations over partitions. */
  shardAttribute: 'accountsShard',
  /** `<createdAt>#<accountId>`: ISO-8601 sorts as text, the id breaks ties. */
  atAttribute: 'accountsAt',
  /** The owner id lower-cased: owner search is case-insensitive (§31). */
  ownerAttribute: 'ownerKey',
  /** `<name lower-cased>#<accountId>`; absent on an account without a name. */
  nameAttribute: 'nameKey',
} as const;

/**
 * Index partitions of `accounts` and `account-names`. Fixed for the life of a table (readers
 * Query 0 … N − 1); each takes DynamoDB's per-partition write rate of account creations.
 */
export const ACCOUNT_SHARD_COUNT = 4;

/** How the directory compares owner ids and names: case-insensitively. */
export const searchText = (text: string): string => text.toLocaleLowerCase('en');

export const accountShardKey = (shard: number): string => `ACCOUNTS#${shard}`;

/** The directory's attributes of an account item (written at creation and by the backfill). */
export function accountIndexAttributes(account: {
  readonly id: string;
  readonly ownerId: string;
  readonly name?: string | undefined;
  readonly createdAt: string;
}): Record<string, string> {
  return {
    [ACCOUNT_INDEX.shardAttribute]: accountShardKey(dueShardOf(account.id, ACCOUNT_SHARD_COUNT)),
    [ACCOUNT_INDEX.atAttribute]: `${account.createdAt}#${account.id}`,
    [ACCOUNT_INDEX.ownerAttribute]: searchText(account.ownerId),
    ...(account.name
      ? { [ACCOUNT_INDEX.nameAttribute]: `${searchText(account.name)}#${account.id}` }
      : {}),
  };
}
