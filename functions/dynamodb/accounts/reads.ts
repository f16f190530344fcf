import { type AttributeValue, QueryCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { PendingCredit } from '../../domain/accounts/pending-credits';
import type { EntryReadPort, PendingCreditPage } from '../../domain/accounts/port';
import { PENDING_CREDIT_KIND, SET_ASIDE_CREDIT_KIND, toPendingCredit } from '../intake/items';
import {
  keys,
  PENDING_CREDIT_SK_PREFIX,
  SET_ASIDE_CREDIT_SK_PREFIX,
  SK_RANGE_END,
} from '../table/keys';
import { getItem, getItems } from '../table/reads';
import { storageError } from '../table/sdk-errors';
import type { StoreOptions } from '../table/transact';
import { ENTRY_POINTER_KIND } from './entries';
import { toAccountRecord, toLedgerEntry } from './items';
import {
  decodePendingCursor,
  encodePendingCursor,
  type PendingRun,
  type ShardPosition,
} from './pending-cursor';

/** What one Query of a partition returned, and where it stopped while there may be more. */
interface ShardRead {
  readonly items: Record<string, unknown>[];
  readonly stoppedAt: string | undefined;
}

/** Sorts after every pending credit's sort key. */
const SK_RANGE_END_OF_PENDING = `${PENDING_CREDIT_SK_PREFIX}${SK_RANGE_END}`;

const SET_ASIDE_PREFIX = SET_ASIDE_CREDIT_SK_PREFIX;

/** The item kind under a partition's prefix: pending, or set aside (§36). */
const kindOf = (prefix: string) =>
  prefix === SET_ASIDE_PREFIX ? SET_ASIDE_CREDIT_KIND : PENDING_CREDIT_KIND;

/** Entries by id and pending credits on the table (docs/contract.md §24). */
export function createEntryReadStore(options: StoreOptions): EntryReadPort {
  const { client, tableName } = options;

  async function query(
    pk: string,
    limit: number,
    from: ShardPosition,
    filterEntryId?: string,
    prefix = PENDING_CREDIT_SK_PREFIX,
  ): Promise<ShardRead> {
    try {
      const { Items = [], LastEvaluatedKey } = await client.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ...(filterEntryId === undefined
            ? {}
            : {
                FilterExpression: '#entryId = :entryId',
                ExpressionAttributeNames: { '#entryId': 'entryId' },
              }),
          ExpressionAttributeValues: marshall({
            ':pk': pk,
            ':prefix': prefix,
            ...(filterEntryId === undefined ? {} : { ':entryId': filterEntryId }),
          }),
          ConsistentRead: true,
          ...(limit > 0 ? { Limit: limit } : {}),
          ...(from === null ? {} : { ExclusiveStartKey: marshall({ pk, sk: from }) }),
        }),
      );
      const items = Items.map((item: Record<string, AttributeValue>) => unmarshall(item));
      const stoppedAt = LastEvaluatedKey ? String(unmarshall(LastEvaluatedKey).sk) : undefined;
      return { items, stoppedAt };
    } catch (error) {
      throw storageError(error);
    }
  }

  /** Every gate's `accepted` count (0 for a gate not written), in one BatchGetItem. */
  async function acceptedCounts(accountId: string, shards: number): Promise<number[]> {
    const list = Array.from({ length: shards }, (_, shard) => keys.intakeGate(accountId, shard));
    const gates = await getItems(client, tableName, list);
    return gates.map((gate) => Number(gate?.accepted ?? 0));
  }

  /**
   * The cursor after a page whose partitions hold nothing past it (docs/contract.md §24): the
   * gates are read after the Queries, and a partition that counted a credit since its pass began
   * may hold one behind its position, so it passes again from its start; none: the run ends.
   */
  async function afterLastPage(
    accountId: string,
    run: PendingRun,
    positions: ShardPosition[],
  ): Promise<string | null> {
    const now = await acceptedCounts(accountId, positions.length);
    const moved = (shard: number) => now[shard] !== run.accepted[shard];
    if (!now.some((_, shard) => moved(shard))) return null;
    return encodePendingCursor({
      positions: positions.map((position, shard) => (moved(shard) ? null : position)),
      accepted: now,
    });
  }

  return {
    async getAccount(accountId) {
      const item = await getItem(client, tableName, keys.account(accountId));
      return item ? toAccountRecord(item) : undefined;
    },

    async postedEntry(accountId, entryId) {
      const pointer = await getItem(client, tableName, keys.entryPointer(entryId));
      if (pointer?.kind !== ENTRY_POINTER_KIND || pointer.accountId !== accountId) return undefined;
      const key = keys.entry(accountId, String(pointer.createdAt), entryId);
      const item = await getItem(client, tableName, key);
      return item ? toLedgerEntry(item) : undefined;
    },

    async pendingEntry(accountId, shard, entryId): Promise<PendingCredit | undefined> {
      const { pk } = keys.intakeGate(accountId, shard);
      // A partition holds what its account has not posted yet: few items, usually one page.
      // Pending first, then set aside (§36): the folder moves a credit only that way round.
      for (const prefix of [PENDING_CREDIT_SK_PREFIX, SET_ASIDE_PREFIX]) {
        let from: ShardPosition = null;
        for (;;) {
          const page = await query(pk, 0, from, entryId, prefix);
          const [item] = page.items.filter((found) => found.kind === kindOf(prefix));
          if (item) return toPendingCredit(item);
          if (page.stoppedAt === undefined) break;
          from = page.stoppedAt;
        }
      }
      return undefined;
    },

    async pendingCredits(accountId, shards, limit, cursor): Promise<PendingCreditPage> {
      // A run counts what each gate accepted before its first Query: whatever is counted later
      // is either ahead of a position (read by a Query) or makes its partition pass again.
      const run: PendingRun = decodePendingCursor(cursor, shards) ?? {
        positions: Array.from({ length: shards }, () => null),
        accepted: await acceptedCounts(accountId, shards),
      };
      const { positions } = run;
      // One Query per partition, each from where the cursor left it; one extra item each tells
      // whether it holds more without an empty last page.
      const reads = await Promise.all(
        positions.map((from, shard) =>
          query(keys.intakeGate(accountId, shard).pk, limit + 1, from),
        ),
      );
      // Nothing past where a partition that may hold more stopped (DynamoDB's 1 MB pages).
      const frontier = reads.reduce<string>(
        (low, read) =>
          read.stoppedAt !== undefined && read.stoppedAt < low ? read.stoppedAt : low,
        SK_RANGE_END_OF_PENDING,
      );
      const merged = reads
        .flatMap(({ items }, shard) => items.map((item) => ({ shard, item, sk: String(item.sk) })))
        .filter(({ sk }) => sk <= frontier)
        .sort((a, b) => (a.sk < b.sk ? -1 : a.sk > b.sk ? 1 : 0));
      const taken = merged.slice(0, limit);
      const next = [...positions];
      for (const { shard, sk } of taken) next[shard] = sk;
      const fetched = reads.reduce((n, read) => n + read.items.length, 0);
      const more = taken.length < fetched || reads.some((read) => read.stoppedAt !== undefined);
      // Set-aside credits (§36, few: each awaits an operator) head the first page.
      const setAside =
        cursor === undefined
          ? await Promise.all(
              positions.map((_, shard) =>
                query(keys.intakeGate(accountId, shard).pk, 0, null, undefined, SET_ASIDE_PREFIX),
              ),
            )
          : [];
      return {
        items: [
          ...setAside
            .flatMap(({ items }) => items)
            .sort((a, b) => (String(a.sk) < String(b.sk) ? -1 : 1))
            .map(toPendingCredit),
          ...taken.map(({ item }) => toPendingCredit(item)),
        ],
        nextCursor: more
          ? encodePendingCursor({ positions: next, accepted: run.accepted })
          : await afterLastPage(accountId, run, next),
      };
    },
  };
}
