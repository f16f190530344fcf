import {
  type AttributeValue,
  type DynamoDBClient,
  QueryCommand,
  ScanCommand,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { PendingCredit } from '../../domain/intake/model';
import { keys, PENDING_CREDIT_SK_PREFIX } from '../table/keys';
import { getItems } from '../table/reads';
import { storageError } from '../table/sdk-errors';
import { INTAKE_GATE_KIND, toPendingCredit } from './items';

/**
 * Bounded reads of intake partitions for operators (the console, docs/contract.md §24, §29):
 * how many credits wait and the oldest of them, without reading every pending credit.
 */

/** One partition's head: its gate's `pending` count and its oldest pending credits. */
export interface IntakeHead {
  readonly shard: number;
  /** The gate's count of pending credits; 0 when the partition has no gate. */
  readonly pending: number;
  /** At most the `oldest` asked for, oldest first. */
  readonly oldest: readonly PendingCredit[];
}

/**
 * The head of one intake partition: ONE Query of at most `oldest` + 1 items (the gate sorts
 * before the pending credits, `GATE` < `PENDING#`), strongly consistent.
 */
export async function readIntakeHead(
  client: DynamoDBClient,
  tableName: string,
  accountId: string,
  shard: number,
  oldest: number,
): Promise<IntakeHead> {
  const key = keys.intakeGate(accountId, shard);
  try {
    const { Items = [] } = await client.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: marshall({ ':pk': key.pk }),
        ConsistentRead: true,
        Limit: oldest + 1,
      }),
    );
    const items = Items.map((item) => unmarshall(item));
    const gate = items.find((item) => item.sk === key.sk);
    return {
      shard,
      pending: Number(gate?.pending ?? 0),
      oldest: items
        .filter((item) => String(item.sk).startsWith(PENDING_CREDIT_SK_PREFIX))
        .slice(0, oldest)
        .map(toPendingCredit),
    };
  } catch (error) {
    throw storageError(error);
  }
}

/** Pending credits an account's gates count (their `pending`), one BatchGetItem. */
export async function countPending(
  client: DynamoDBClient,
  tableName: string,
  accountId: string,
  shards: number,
): Promise<number> {
  const gateKeys = Array.from({ length: shards }, (_, shard) => keys.intakeGate(accountId, shard));
  const gates = await getItems(client, tableName, gateKeys);
  return gates.reduce((sum, gate) => sum + Number(gate?.pending ?? 0), 0);
}

/** A gate as the intake-lag scan sees it. */
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
 * Every intake gate (items of kind `intake-gate`) a Scan of at most `limit` items finds: there is
 * no index of deferred accounts, so this is an operator's occasional read, not a dashboard's.
 */
export async function scanIntakeGates(
  client: DynamoDBClient,
  tableName: string,
  limit: number,
): Promise<GateScan> {
  const gates: GateView[] = [];
  let scanned = 0;
  let start: Record<string, AttributeValue> | undefined;
  try {
    do {
      const page = await client.send(
        new ScanCommand({
          TableName: tableName,
          FilterExpression: '#kind = :kind',
          ExpressionAttributeNames: { '#kind': 'kind' },
          ExpressionAttributeValues: marshall({ ':kind': INTAKE_GATE_KIND }),
          Limit: Math.min(1000, limit - scanned),
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      scanned += page.ScannedCount ?? 0;
      for (const raw of page.Items ?? []) gates.push(gateView(unmarshall(raw)));
      start = page.LastEvaluatedKey;
    } while (start && scanned < limit);
  } catch (error) {
    throw storageError(error);
  }
  return { gates, scanned, complete: start === undefined };
}

function gateView(item: Record<string, unknown>): GateView {
  return {
    accountId: String(item.accountId),
    ownerId: String(item.ownerId ?? ''),
    shard: Number(String(item.pk).split('#').at(-1)),
    creditIntake: String(item.creditIntake ?? 'direct'),
    pending: Number(item.pending ?? 0),
  };
}
