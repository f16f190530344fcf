import { createHash } from 'node:crypto';
import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { IndexedObject, IndexPlan, Pair, SearchKind } from '../../domain/search/model';
import { toAttributes } from '../table/attributes';
import type { ItemKey } from '../table/keys';

/** The search partitions' prefixes (CDK grants the indexer exactly these). */
export const SEARCH_PARTITION_PREFIXES = {
  pair: 'SEARCH#',
  object: 'SEARCH_OBJECT#',
  head: 'SEARCH_HEAD#',
} as const;
const P = SEARCH_PARTITION_PREFIXES;

/** Index items of a pair's partition sort by this, then the object's time and id. */
export const SEARCH_SK_PREFIX = 'AT#';

const digest = (...parts: string[]) =>
  createHash('sha256').update(parts.join('\u0000')).digest('hex');

/**
 * Search keys (docs/contract.md §34). A pair's partition hashes the owner, the field and the
 * value (any text, any length: the key stays 64 hex characters, far below 2,048 bytes):
 * - index item (`SEARCH#<kind>#<hash>` / `AT#<sortAt>#<id>`): `{ kind: 'search-index', ownerId,
 *   objectKind, id, sortAt, accountId?, name?, pairs: { <field>: <value> } }`, every pair of
 *   its object copied, so one Query of the rarest filter checks the others;
 * - the pair's count beside them (`COUNT`): `{ kind: 'search-count', count }`;
 * - the object's record of indexed pairs (`SEARCH_OBJECT#<kind>#<id>` / `PAIRS`): what was
 *   indexed, so removals are indexed too, and the guard of its one transaction (`revision`);
 * - an account's index head (`SEARCH_HEAD#<accountId>` / `HEAD`): `{ sequence, committedAt }`.
 */
export const searchKeys = {
  partition: (ownerId: string, kind: SearchKind, pair: Pair): string =>
    `${P.pair}${kind}#${digest(ownerId, pair.field, pair.value)}`,
  item: (object: IndexedObject, pair: Pair): ItemKey => ({
    pk: searchKeys.partition(object.ownerId, object.kind, pair),
    sk: `${SEARCH_SK_PREFIX}${object.sortAt}#${object.id}`,
  }),
  count: (ownerId: string, kind: SearchKind, pair: Pair): ItemKey => ({
    pk: searchKeys.partition(ownerId, kind, pair),
    sk: 'COUNT',
  }),
  object: (kind: SearchKind, id: string): ItemKey => ({
    pk: `${P.object}${kind}#${id}`,
    sk: 'PAIRS',
  }),
  head: (accountId: string): ItemKey => ({ pk: `${P.head}${accountId}`, sk: 'HEAD' }),
};

const copied = (object: IndexedObject) =>
  Object.fromEntries(object.pairs.map((pair) => [pair.field, pair.value]));

/** The index item of one pair of `object`. */
export function indexItem(object: IndexedObject, pair: Pair): Record<string, unknown> {
  return {
    ...searchKeys.item(object, pair),
    kind: 'search-index',
    ownerId: object.ownerId,
    objectKind: object.kind,
    id: object.id,
    sortAt: object.sortAt,
    accountId: object.accountId,
    name: object.name,
    pairs: copied(object),
  };
}

/** The object's record of indexed pairs as stored, and back. */
export function objectRecord(object: IndexedObject, revision: number): Record<string, unknown> {
  return {
    ...searchKeys.object(object.kind, object.id),
    kind: 'search-object',
    objectKind: object.kind,
    id: object.id,
    ownerId: object.ownerId,
    sortAt: object.sortAt,
    accountId: object.accountId,
    name: object.name,
    pairs: object.pairs.map((pair) => [pair.field, pair.value]),
    revision,
  };
}

export function toIndexedObject(item: Record<string, unknown>): IndexedObject {
  const pairs = (item.pairs as [string, string][] | undefined) ?? [];
  return {
    kind: item.objectKind === 'account' ? 'account' : 'entry',
    id: String(item.id),
    ownerId: String(item.ownerId),
    sortAt: String(item.sortAt),
    ...(typeof item.accountId === 'string' ? { accountId: item.accountId } : {}),
    ...(typeof item.name === 'string' ? { name: item.name } : {}),
    pairs: pairs.map(([field, value]) => ({ field, value })),
  };
}

/**
 * ONE transaction's items (docs/contract.md §34): the record (created, or while at `revision`),
 * an index item per pair of `next`, the items `previous` had that `next` has not deleted, and
 * the counts of added and removed pairs moved. At most 1 + 21 + 2 × 20 + 20 items (< 100).
 */
export function indexWrites(
  tableName: string,
  previous: { object: IndexedObject; revision: number } | undefined,
  next: IndexedObject,
  plan: IndexPlan,
): TransactWriteItem[] {
  const revision = (previous?.revision ?? 0) + 1;
  const record: TransactWriteItem = {
    Put: {
      TableName: tableName,
      Item: toAttributes(objectRecord(next, revision)),
      ConditionExpression: previous ? 'revision = :seen' : 'attribute_not_exists(pk)',
      ...(previous ? { ExpressionAttributeValues: marshall({ ':seen': previous.revision }) } : {}),
    },
  };
  const kept = new Set(plan.put.map((pair) => JSON.stringify(searchKeys.item(next, pair))));
  const stale = (previous?.object.pairs ?? [])
    .map((pair) => searchKeys.item(previous?.object ?? next, pair))
    .filter((key) => !kept.has(JSON.stringify(key)));
  return [
    record,
    ...plan.put.map((pair) => ({
      Put: { TableName: tableName, Item: toAttributes(indexItem(next, pair)) },
    })),
    ...stale.map((key) => ({ Delete: { TableName: tableName, Key: marshall(key) } })),
    ...plan.added.map((pair) => countBy(tableName, next.ownerId, next.kind, pair, 1)),
    ...plan.removed.map((pair) =>
      countBy(tableName, previous?.object.ownerId ?? next.ownerId, next.kind, pair, -1),
    ),
  ];
}

function countBy(
  tableName: string,
  ownerId: string,
  kind: SearchKind,
  pair: Pair,
  delta: number,
): TransactWriteItem {
  return {
    Update: {
      TableName: tableName,
      Key: marshall(searchKeys.count(ownerId, kind, pair)),
      UpdateExpression: 'SET #kind = :kind ADD #count :delta',
      ExpressionAttributeNames: { '#kind': 'kind', '#count': 'count' },
      ExpressionAttributeValues: marshall({ ':kind': 'search-count', ':delta': delta }),
    },
  };
}
