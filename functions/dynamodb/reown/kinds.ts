import {
  type AttributeValue,
  type DynamoDBClient,
  QueryCommand,
  ScanCommand,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { OwnedKind } from '../../domain/reown/model';
import { ENTRY_SK_PREFIX, HOLD_SK_PREFIX, type ItemKey, keys } from '../table/keys';
import { getItems } from '../table/reads';
import { storageError } from '../table/sdk-errors';

/**
 * How each kind of owned item is found under a set of accounts (docs/operations.md
 * "Re-owning an account"). A page is a list of groups: the items of one thing that all carry
 * the owner (a hold and its listing copy), moved together. A new kind adds one finder here.
 */
export interface OwnedPageOfKeys {
  readonly groups: readonly (readonly ItemKey[])[];
  /** Items read for this page (before filtering). */
  readonly seen: number;
  readonly cursor?: string;
}

export type KindFinder = (
  accountIds: readonly string[],
  cursor: string | undefined,
) => Promise<OwnedPageOfKeys>;

/** Items one Query or Scan page reads at most (DynamoDB also stops at 1 MB). */
const PAGE_LIMIT = 500;

export function ownedKindFinders(
  client: DynamoDBClient,
  tableName: string,
): Readonly<Record<OwnedKind, KindFinder>> {
  /** One page of one account's partition under `prefix`, then the next account's. */
  const perAccount =
    (
      prefix: string,
      groupsOf: (items: Record<string, unknown>[]) => ItemKey[][],
      filter?: { readonly expression: string; readonly projection: string },
    ): KindFinder =>
    async (accountIds, cursor) => {
      const at = decode(cursor);
      const index = typeof at.account === 'number' ? at.account : 0;
      const accountId = accountIds[index];
      if (accountId === undefined) return { groups: [], seen: 0 };
      const { pk } = keys.account(accountId);
      const page = await send(() =>
        client.send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
            ExpressionAttributeValues: marshall({ ':pk': pk, ':prefix': prefix }),
            ...(filter
              ? { FilterExpression: filter.expression, ProjectionExpression: filter.projection }
              : { ProjectionExpression: 'pk, sk, id' }),
            ConsistentRead: true,
            Limit: PAGE_LIMIT,
            ...(at.key ? { ExclusiveStartKey: at.key } : {}),
          }),
        ),
      );
      const items = (page.Items ?? []).map((item) => unmarshall(item));
      const next: Cursor | undefined = page.LastEvaluatedKey
        ? { account: index, key: page.LastEvaluatedKey }
        : index + 1 < accountIds.length
          ? { account: index + 1 }
          : undefined;
      return { groups: groupsOf(items), seen: page.ScannedCount ?? items.length, ...encode(next) };
    };

  return {
    // Each hold is stored twice: by id, and as its account's listing copy (found here).
    holds: perAccount(HOLD_SK_PREFIX, (refs) =>
      refs.map((ref) => [keys.hold(String(ref.id)), { pk: String(ref.pk), sk: String(ref.sk) }]),
    ),
    // Tasks sit in their own partitions: a Scan for task items of these accounts.
    tasks: async (accountIds, cursor) => {
      const wanted = new Set(accountIds);
      const at = decode(cursor);
      const page = await send(() =>
        client.send(
          new ScanCommand({
            TableName: tableName,
            FilterExpression: '#kind = :task',
            ProjectionExpression: 'pk, sk, accountId',
            ExpressionAttributeNames: { '#kind': 'kind' },
            ExpressionAttributeValues: marshall({ ':task': 'task' }),
            Limit: PAGE_LIMIT,
            ...(at.key ? { ExclusiveStartKey: at.key } : {}),
          }),
        ),
      );
      const tasks = (page.Items ?? []).map((item) => unmarshall(item));
      return {
        groups: tasks
          .filter((task) => wanted.has(String(task.accountId)))
          .map((task) => [{ pk: String(task.pk), sk: String(task.sk) }]),
        seen: page.ScannedCount ?? tasks.length,
        ...encode(page.LastEvaluatedKey ? { key: page.LastEvaluatedKey } : undefined),
      };
    },
    // A transfer's record, found through the legs in each account's listing.
    transfers: perAccount(
      ENTRY_SK_PREFIX,
      (legs) => {
        const ids = new Set(legs.map((leg) => String(leg.transferId)));
        return [...ids].map((id) => [keys.transfer(id)]);
      },
      { expression: 'attribute_exists(transferId)', projection: 'transferId' },
    ),
    // A ledger transaction's record, found through its legs (and reversals) the same way.
    ledgerTransactions: perAccount(
      ENTRY_SK_PREFIX,
      (legs) => {
        const ids = new Set(legs.map((leg) => String(leg.ledgerTransactionId)));
        return [...ids].map((id) => [keys.ledgerTransaction(id)]);
      },
      { expression: 'attribute_exists(ledgerTransactionId)', projection: 'ledgerTransactionId' },
    ),
  };
}

/**
 * The accounts an account's transfers and ledger transactions link it to, each once (every page
 * of its entries; then the records of its ledger transactions, whose legs name the others).
 */
export async function counterpartiesOf(
  client: DynamoDBClient,
  tableName: string,
  accountId: string,
): Promise<string[]> {
  const found = new Set<string>();
  const ledgerTransactions = new Set<string>();
  let start: Record<string, AttributeValue> | undefined;
  do {
    const page = await send(() =>
      client.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          FilterExpression:
            'attribute_exists(counterpartyAccountId) OR attribute_exists(ledgerTransactionId)',
          ProjectionExpression: 'counterpartyAccountId, ledgerTransactionId',
          ExpressionAttributeValues: marshall({
            ':pk': keys.account(accountId).pk,
            ':prefix': ENTRY_SK_PREFIX,
          }),
          ConsistentRead: true,
          ExclusiveStartKey: start,
        }),
      ),
    );
    for (const raw of page.Items ?? []) {
      const item = unmarshall(raw);
      if (typeof item.counterpartyAccountId === 'string') found.add(item.counterpartyAccountId);
      if (typeof item.ledgerTransactionId === 'string')
        ledgerTransactions.add(item.ledgerTransactionId);
    }
    start = page.LastEvaluatedKey;
  } while (start);
  const ids = [...ledgerTransactions];
  for (let i = 0; i < ids.length; i += BATCH_GET_LIMIT) {
    const records = await getItems(
      client,
      tableName,
      ids.slice(i, i + BATCH_GET_LIMIT).map((id) => keys.ledgerTransaction(id)),
    );
    for (const record of records) {
      for (const leg of Array.isArray(record?.legs) ? record.legs : []) {
        const other = String((leg as { accountId?: unknown }).accountId);
        if (other !== accountId) found.add(other);
      }
    }
  }
  return [...found];
}

/** Keys one BatchGetItem takes at most. */
const BATCH_GET_LIMIT = 100;

/** Where a finder continues: an account of the list and a key in it (Query), or a key (Scan). */
interface Cursor {
  readonly account?: number;
  readonly key?: Record<string, AttributeValue>;
}

const encode = (cursor: Cursor | undefined) =>
  cursor === undefined ? {} : { cursor: JSON.stringify(cursor) };

function decode(cursor: string | undefined): Cursor {
  if (cursor === undefined) return {};
  const parsed = JSON.parse(cursor) as Cursor;
  return typeof parsed === 'object' && parsed !== null ? parsed : {};
}

async function send<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw storageError(error);
  }
}
