import { type AttributeValue, type DynamoDBClient, QueryCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { UnavailableError, ValidationError } from '../../domain/shared/errors';
import {
  ACCOUNT_INDEX,
  ACCOUNT_SHARD_COUNT,
  accountShardKey,
  searchText,
} from '../table/account-index';
import { storageError } from '../table/sdk-errors';

/** DynamoDB's words for an index the table lacks, or one it is still building (backfilling). */
const MISSING_INDEX = /specified index|backfilling global secondary index/i;
const isMissingIndex = (error: unknown): boolean =>
  error instanceof Error &&
  error.name === 'ValidationException' &&
  MISSING_INDEX.test(error.message);

/**
 * A directory index the table does not have yet (a stage upgraded from before the directory
 * gains its indexes one deploy at a time) or is still building: not the asker's fault, and
 * over once the upgrade is done, so `503` with the step that ends it.
 */
export class DirectoryIndexMissing extends UnavailableError {
  constructor(
    readonly index: string,
    cause: unknown,
  ) {
    super(
      cause,
      `The account directory's index "${index}" is not on this table yet, or is still being built: ` +
        'deploy with the CDK context accountDirectoryIndexes raised by one per deploy up to 3, ' +
        'then run `npm run cli -- accounts-backfill` (docs/deployment.md "Upgrading to the ' +
        'account directory").',
    );
  }
}

/** One page of the directory: account ids in order, and where the next page starts. */
export interface DirectoryPage {
  readonly accountIds: readonly string[];
  readonly nextCursor?: string;
}

/** Where one index partition was left: the keys of the last item taken, or `done`. */
type Position = Record<string, string> | 'done';

interface Listing {
  readonly index: string;
  readonly partitionAttribute: string;
  readonly sortAttribute: string;
  readonly partitions: readonly string[];
  readonly newestFirst: boolean;
  /** A condition on the sort key (with its values), beside the partition's. */
  readonly sortCondition?: { readonly expression: string; readonly values: Record<string, string> };
}

const allShards = () => Array.from({ length: ACCOUNT_SHARD_COUNT }, (_, i) => accountShardKey(i));

/**
 * The console's account directory (../table/account-index.ts, docs/contract.md §31): pages of
 * account ids from Queries of the directory's indexes, never a Scan. A sharded index is read as
 * one list: each shard's next `limit` ids are merged in order and the first `limit` taken; the
 * cursor keeps each shard's position, so no account is skipped or listed twice between pages.
 * Eventually consistent (GSIs are): an account created a moment ago may show a moment later.
 */
export function createAccountDirectory(options: {
  readonly client: DynamoDBClient;
  readonly tableName: string;
}) {
  const { client, tableName } = options;

  async function page(listing: Listing, limit: number, cursor?: string): Promise<DirectoryPage> {
    const positions = decodePositions(cursor, listing.partitions);
    const read = await Promise.all(
      listing.partitions.map(async (partition) => {
        const at = positions[partition];
        if (at === 'done') return { partition, items: [], more: false };
        return { partition, ...(await query(listing, partition, limit, at)) };
      }),
    );
    const sortOf = (item: Record<string, unknown>) => String(item[listing.sortAttribute]);
    const merged = read
      .flatMap(({ partition, items }) => items.map((item) => ({ partition, item })))
      .sort((a, b) => {
        // DynamoDB's order: UTF-8 bytes, so the merge agrees with each partition's own order.
        const order = Buffer.compare(Buffer.from(sortOf(a.item)), Buffer.from(sortOf(b.item)));
        return listing.newestFirst ? -order : order;
      })
      .slice(0, limit);
    const next: Record<string, Position> = {};
    for (const { partition, items, more } of read) {
      const taken = merged.filter((m) => m.partition === partition);
      const last = taken.at(-1)?.item;
      if (!more && taken.length === items.length) next[partition] = 'done';
      else if (last) next[partition] = keysOf(listing, last);
      else if (positions[partition]) next[partition] = positions[partition] as Position;
    }
    const open = listing.partitions.some((partition) => next[partition] !== 'done');
    return {
      accountIds: merged.map(({ item }) => String(item.pk).slice('ACCOUNT#'.length)),
      ...(open ? { nextCursor: encodePositions(next) } : {}),
    };
  }

  async function query(
    listing: Listing,
    partition: string,
    limit: number,
    start: Record<string, string> | undefined,
  ) {
    try {
      const answer = await client.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: listing.index,
          KeyConditionExpression: `#p = :p${listing.sortCondition ? ` AND ${listing.sortCondition.expression}` : ''}`,
          ExpressionAttributeNames: {
            '#p': listing.partitionAttribute,
            ...(listing.sortCondition ? { '#s': listing.sortAttribute } : {}),
          },
          ExpressionAttributeValues: marshall({
            ':p': partition,
            ...listing.sortCondition?.values,
          }),
          ScanIndexForward: !listing.newestFirst,
          Limit: limit,
          ...(start ? { ExclusiveStartKey: marshall(start) } : {}),
        }),
      );
      return {
        items: (answer.Items ?? []).map((raw: Record<string, AttributeValue>) => unmarshall(raw)),
        more: answer.LastEvaluatedKey !== undefined,
      };
    } catch (error) {
      if (isMissingIndex(error)) {
        throw new DirectoryIndexMissing(listing.index, error);
      }
      throw storageError(error);
    }
  }

  const at = { sortAttribute: ACCOUNT_INDEX.atAttribute, newestFirst: true } as const;
  return {
    /** Every account, newest first. */
    recent: (limit: number, cursor?: string) =>
      page(
        {
          index: ACCOUNT_INDEX.recent,
          partitionAttribute: ACCOUNT_INDEX.shardAttribute,
          partitions: allShards(),
          ...at,
        },
        limit,
        cursor,
      ),

    /** An owner's accounts, newest first; the owner id in any case. */
    byOwner: (ownerId: string, limit: number, cursor?: string) =>
      page(
        {
          index: ACCOUNT_INDEX.owner,
          partitionAttribute: ACCOUNT_INDEX.ownerAttribute,
          partitions: [searchText(ownerId)],
          ...at,
        },
        limit,
        cursor,
      ),

    /** Accounts whose name starts with `prefix` (any case), by name. */
    byNamePrefix: (prefix: string, limit: number, cursor?: string) =>
      page(
        {
          index: ACCOUNT_INDEX.name,
          partitionAttribute: ACCOUNT_INDEX.shardAttribute,
          sortAttribute: ACCOUNT_INDEX.nameAttribute,
          partitions: allShards(),
          newestFirst: false,
          sortCondition: {
            expression: 'begins_with(#s, :prefix)',
            values: { ':prefix': searchText(prefix) },
          },
        },
        limit,
        cursor,
      ),
  };
}

export type AccountDirectory = ReturnType<typeof createAccountDirectory>;

/** An index item's keys: the table's and the index's, what ExclusiveStartKey takes. */
function keysOf(listing: Listing, item: Record<string, unknown>): Record<string, string> {
  const names = ['pk', 'sk', listing.partitionAttribute, listing.sortAttribute];
  return Object.fromEntries(names.map((name) => [name, String(item[name])]));
}

function encodePositions(positions: Record<string, Position>): string {
  return Buffer.from(JSON.stringify(positions), 'utf8').toString('base64url');
}

/** Each partition's position in a cursor this directory returned; a foreign one is refused. */
function decodePositions(
  cursor: string | undefined,
  partitions: readonly string[],
): Record<string, Position | undefined> {
  if (cursor === undefined) return {};
  const invalid = (cause?: unknown) =>
    new ValidationError(
      'The cursor is not one this listing returned: start again from the first page.',
      [{ path: 'query.cursor', message: 'invalid cursor' }],
      cause,
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch (error) {
    throw invalid(error);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalid();
  const positions: Record<string, Position | undefined> = {};
  for (const [partition, value] of Object.entries(parsed)) {
    if (!partitions.includes(partition)) throw invalid();
    const valid =
      value === 'done' ||
      (typeof value === 'object' &&
        value !== null &&
        Object.values(value).length === 4 &&
        Object.values(value).every((v) => typeof v === 'string'));
    if (!valid) throw invalid();
    positions[partition] = value as Position;
  }
  return positions;
}
