import {
  type AttributeValue,
  QueryCommand,
  type TransactWriteItem,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { PendingCredit } from '../../domain/accounts/pending-credits';
import type { PostingPort, PostOutcome } from '../../domain/intake/port';
import type { AccountChange } from '../../domain/journal/model';
import { InternalError } from '../../domain/shared/errors';
import { composeMoney } from '../movements/compose';
import { type Cancellation, commitMoney } from '../movements/decode';
import { legChange, type MoneyPlan } from '../movements/plan';
import { keys, PENDING_CREDIT_SK_PREFIX } from '../table/keys';
import { getItem } from '../table/reads';
import { storageError } from '../table/sdk-errors';
import { retryPolicy, type StoreOptions } from '../table/transact';
import { toPendingCredit } from './items';
import { removePendingItem, setAsideCredit } from './set-aside';

/**
 * The folder's store (docs/contract.md §24; functions/domain/intake/posting.ts): reads an
 * account's intake partitions and posts a chunk of pending credits in ONE TransactWriteItems.
 */

/** The journal's descriptor of a posted credit: as its leg would be, at posting, with acceptedAt. */
export function postedChange(credit: PendingCredit, at: string): AccountChange {
  return { ...legChange(credit.entry, credit.entry.amount), at, acceptedAt: credit.acceptedAt };
}

/** The partition's posted count grows by `count` (the gate is not touched: intake holds it). */
function postedCountItem(
  tableName: string,
  accountId: string,
  shard: number,
  count: number,
): TransactWriteItem {
  return {
    Update: {
      TableName: tableName,
      Key: marshall(keys.intakePosted(accountId, shard)),
      UpdateExpression: 'ADD #posted :count',
      ExpressionAttributeNames: { '#posted': 'posted' },
      ExpressionAttributeValues: marshall({ ':count': count }),
    },
  };
}

/**
 * One posting as the one composer plans it (`dynamodb/movements/compose.ts`): ONE account update
 * carrying a change per credit (no owner, open or currency guard: the gates checked those at
 * intake, and closing waits until every accepted credit is posted; `postsPendingCredits`), per
 * credit its entry, pointer and pending item's removal (`entry:<i>`, `pointer:<i>`,
 * `pending:<i>`), then the posted count of every touched partition (never its gate, which the
 * intakes hold).
 */
export function foldPlan(
  tableName: string,
  accountId: string,
  credits: readonly PendingCredit[],
  at: string,
): MoneyPlan {
  const perShard = new Map<number, number>();
  for (const { shard } of credits) perShard.set(shard, (perShard.get(shard) ?? 0) + 1);
  return {
    postsPendingCredits: true,
    movements: credits.map((credit, i) => ({
      legs: [{ accountId, change: postedChange(credit, at), guard: {}, entry: credit.entry }],
      after: [{ role: `pending:${i}`, item: removePendingItem(tableName, credit) }],
    })),
    tail: [...perShard]
      .sort(([a], [b]) => a - b)
      .map(([shard, count]) => ({
        role: `posted:${shard}`,
        item: postedCountItem(tableName, accountId, shard, count),
      })),
  };
}

/** The oldest `limit` pending credits of one partition, strongly consistent. */
async function readPartition(
  options: StoreOptions,
  accountId: string,
  shard: number,
  limit: number,
): Promise<PendingCredit[]> {
  const credits: PendingCredit[] = [];
  let startKey: Record<string, AttributeValue> | undefined;
  try {
    do {
      const page = await options.client.send(
        new QueryCommand({
          TableName: options.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: marshall({
            ':pk': keys.intakeGate(accountId, shard).pk,
            ':prefix': PENDING_CREDIT_SK_PREFIX,
          }),
          ConsistentRead: true,
          Limit: limit - credits.length,
          ExclusiveStartKey: startKey,
        }),
      );
      for (const raw of page.Items ?? []) credits.push(toPendingCredit(unmarshall(raw)));
      startKey = page.LastEvaluatedKey;
    } while (startKey && credits.length < limit);
    return credits;
  } catch (error) {
    throw storageError(error);
  }
}

/** What a cancelled posting means: lost to another folder, or refused by the account. */
function outcomeOf(accountId: string, cancellation: Cancellation) {
  if (cancellation.taken.size > 0) return { kind: 'gone' } as const;
  const { accounts } = cancellation;
  if (accounts.has(accountId))
    return { kind: 'refused', account: accounts.get(accountId) } as const;
  // A posted count has no condition: a refusal anywhere else is a bug, not a state.
  const roles = [...cancellation.failed.keys()];
  throw new InternalError(new Error(`posting refused by ${roles.join(', ')}`));
}

export function createPostingStore(options: StoreOptions): PostingPort {
  const { client, tableName } = options;
  const retry = retryPolicy(options);
  return {
    async readPending(accountId, perShard) {
      const account = await getItem(client, tableName, keys.account(accountId));
      const shards = Number(account?.intakeShards ?? 0);
      const partitions = await Promise.all(
        Array.from({ length: shards }, (_, shard) =>
          readPartition(options, accountId, shard, perShard),
        ),
      );
      return partitions.flat();
    },

    async post(accountId, credits, at): Promise<PostOutcome> {
      const parts = composeMoney(tableName, foldPlan(tableName, accountId, credits, at));
      // Built from a read: a cancellation for contention reads again instead of resending.
      const outcome = await commitMoney(client, parts, retry, { contention: 'return' });
      if (outcome.kind === 'committed') return { kind: 'posted' };
      if (outcome.kind === 'contended') return outcome;
      return outcomeOf(accountId, outcome.cancellation);
    },

    setAside: (credit, reason, at) => setAsideCredit(options, credit, reason, at),
  };
}
