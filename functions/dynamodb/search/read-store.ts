import { type AttributeValue, QueryCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { AccountRecord } from '../../domain/accounts/model';
import type { IndexPage, SearchReadPort } from '../../domain/search/port';
import { toLedgerEntry } from '../accounts/entries';
import { toAccountRecord } from '../accounts/items';
import { toMetadata } from '../accounts/metadata';
import { decodeCursor, encodeCursor } from '../table/cursor';
import { type ItemKey, keys } from '../table/keys';
import { getItem, getItems } from '../table/reads';
import { storageError } from '../table/sdk-errors';
import type { StoreOptions } from '../table/transact';
import { toHead } from './index-store';
import { SEARCH_SK_PREFIX, searchKeys } from './items';

/** BatchGetItem takes at most 100 keys. */
const BATCH_KEYS = 100;

/** What a search reads (docs/contract.md §34): counts, one Query per page, the objects. */
export function createSearchReadStore(options: StoreOptions): SearchReadPort {
  const { client, tableName } = options;
  const batched = async (list: readonly ItemKey[]) => {
    const found: (Record<string, unknown> | undefined)[] = [];
    for (let i = 0; i < list.length; i += BATCH_KEYS) {
      found.push(...(await getItems(client, tableName, list.slice(i, i + BATCH_KEYS))));
    }
    return found;
  };

  return {
    async counts(ownerId, kind, pairs) {
      const items = await batched(pairs.map((pair) => searchKeys.count(ownerId, kind, pair)));
      return items.map((item) => Math.max(0, Number(item?.count ?? 0)));
    },

    async query(input): Promise<IndexPage> {
      const pk = searchKeys.partition(input.ownerId, input.kind, input.rarest);
      const names: Record<string, string> = { '#owner': 'ownerId' };
      const values: Record<string, unknown> = {
        ':pk': pk,
        ':at': SEARCH_SK_PREFIX,
        ':owner': input.ownerId,
      };
      const filters = ['#owner = :owner'];
      input.others.forEach((pair, i) => {
        names['#pairs'] = 'pairs';
        names[`#f${i}`] = pair.field;
        values[`:v${i}`] = pair.value;
        filters.push(`#pairs.#f${i} = :v${i}`);
      });
      if (input.name !== undefined) {
        names['#name'] = 'name';
        values[':name'] = input.name;
        filters.push('begins_with(#name, :name)');
      }
      if (input.accountId !== undefined) {
        names['#account'] = 'accountId';
        values[':account'] = input.accountId;
        filters.push('#account = :account');
      }
      const start: Record<string, AttributeValue> | undefined =
        input.cursor === undefined
          ? undefined
          : marshall({ pk, sk: decodeCursor(input.cursor, SEARCH_SK_PREFIX) });
      try {
        const { Items = [], LastEvaluatedKey } = await client.send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :at)',
            FilterExpression: filters.join(' AND '),
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: marshall(values, { removeUndefinedValues: true }),
            ScanIndexForward: false,
            Limit: input.limit,
            ExclusiveStartKey: start,
          }),
        );
        const hits = Items.map((raw) => unmarshall(raw)).map((item) => ({
          id: String(item.id),
          sortAt: String(item.sortAt),
          ...(typeof item.accountId === 'string' ? { accountId: item.accountId } : {}),
        }));
        const last = LastEvaluatedKey ? unmarshall(LastEvaluatedKey) : undefined;
        return { hits, nextCursor: last ? encodeCursor(String(last.sk)) : null };
      } catch (error) {
        throw storageError(error);
      }
    },

    async accounts(ids) {
      const items = await batched(
        ids.flatMap((id) => [keys.account(id), keys.accountMetadata(id)]),
      );
      return ids.map((_, i): AccountRecord | undefined => {
        const account = items[2 * i];
        if (!account) return undefined;
        const metadata = toMetadata(items[2 * i + 1]?.metadata);
        return { ...toAccountRecord(account), ...(metadata ? { metadata } : {}) };
      });
    },

    async entries(hits) {
      const list = hits.map((hit) => keys.entry(hit.accountId ?? '', hit.sortAt, hit.id));
      const items = await batched(list);
      return items.map((item) => (item ? toLedgerEntry(item) : undefined));
    },

    async account(accountId) {
      const item = await getItem(client, tableName, keys.account(accountId));
      return item ? toAccountRecord(item) : undefined;
    },

    readHead: async (accountId) =>
      toHead(await getItem(client, tableName, searchKeys.head(accountId))),
  };
}
