import { type DynamoDBClient, QueryCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { PendingCredit } from '../../domain/accounts/pending-credits';
import { keys, PENDING_CREDIT_SK_PREFIX } from '../table/keys';
import { getItems } from '../table/reads';
import { scanPages } from '../table/scan';
import { storageError } from '../table/sdk-errors';
import { INTAKE_GATE_KIND, toPendingCredit } from './items';

/**
 * Bounded reads of intake partitions for operators (the console, docs/contract.md §24, §29):
 * how many credits wait and the oldest of them, without reading every pending credit.
 */

/**
 * The oldest `count` pending credits of one intake partition, oldest first: ONE Query of at most
 * `count` items, strongly consistent.
 */
export async function oldestPending(
  client: DynamoDBClient,
  tableName: string,
  accountId: string,
  shard: number,
  count: number,
): Promise<PendingCredit[]> {
  try {
    const { Items = [] } = await client.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: marshall({
          ':pk': keys.intakeGate(accountId, shard).pk,
          ':prefix': PENDING_CREDIT_SK_PREFIX,
        }),
        ConsistentRead: true,
        Limit: count,
      }),
    );
    return Items.map((item) => toPendingCredit(unmarshall(item)));
  } catch (error) {
    throw storageError(error);
  }
}

/**
 * The credits waiting in an account's intake partitions: what its gates accepted less what the
 * folder posted (each partition's `POSTED` item), in one BatchGetItem.
 */
export async function countPending(
  client: DynamoDBClient,
  tableName: string,
  accountId: string,
  shards: number,
): Promise<number> {
  const shardList = Array.from({ length: shards }, (_, shard) => shard);
  const [gates, posted] = await Promise.all([
    getItems(
      client,
      tableName,
      shardList.map((shard) => keys.intakeGate(accountId, shard)),
    ),
    getItems(
      client,
      tableName,
      shardList.map((shard) => keys.intakePosted(accountId, shard)),
    ),
  ]);
  const sum = (items: (Record<string, unknown> | undefined)[], field: string) =>
    items.reduce((total, item) => total + Number(item?.[field] ?? 0), 0);
  return Math.max(0, sum(gates, 'accepted') - sum(posted, 'posted'));
}

/** A gate as the intake-lag scan sees it: `pending`, what waits in its partition. */
export interface GateView {
  readonly accountId: string;
  readonly ownerId: string;
  readonly shard: number;
  readonly creditIntake: string;
  readonly pending: number;
}

export interface GateScan {
  readonly gates: readonly GateView[];
  /** Items read; `complete` false when the Scan stopped at its limit. */
  readonly scanned: number;
  readonly complete: boolean;
}

/**
 * Every intake gate (items of kind `intake-gate`) a Scan of at most `limit` items finds, each
 * with what waits in its partition (its `accepted` less the `posted` of the partition's POSTED
 * item, found by the same Scan): there is no index of deferred accounts, so this is an
 * operator's occasional read, not a dashboard's. A Scan stopped at `limit` may have seen a gate
 * and not its POSTED item: its count is then too high, and the page says the Scan is incomplete.
 */
export async function scanIntakeGates(
  client: DynamoDBClient,
  tableName: string,
  limit: number,
): Promise<GateScan> {
  const gates: Record<string, unknown>[] = [];
  const posted = new Map<string, number>();
  const postedSk = keys.intakePosted('', 0).sk;
  const { scanned, complete } = await scanPages(
    client,
    {
      TableName: tableName,
      FilterExpression: '#kind = :kind OR (sk = :posted AND attribute_exists(#posted))',
      ExpressionAttributeNames: { '#kind': 'kind', '#posted': 'posted' },
      ExpressionAttributeValues: marshall({ ':kind': INTAKE_GATE_KIND, ':posted': postedSk }),
    },
    (items) => {
      for (const item of items) {
        if (item.sk === postedSk) posted.set(String(item.pk), Number(item.posted ?? 0));
        else gates.push(item);
      }
    },
    { limit },
  );
  return {
    gates: gates.map((gate) => gateView(gate, posted.get(String(gate.pk)) ?? 0)),
    scanned,
    complete,
  };
}

function gateView(item: Record<string, unknown>, posted: number): GateView {
  return {
    accountId: String(item.accountId),
    ownerId: String(item.ownerId ?? ''),
    shard: Number(String(item.pk).split('#').at(-1)),
    creditIntake: String(item.creditIntake ?? 'direct'),
    pending: Math.max(0, Number(item.accepted ?? 0) - posted),
  };
}
