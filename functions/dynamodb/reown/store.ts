import {
  ConditionalCheckFailedException,
  type DynamoDBClient,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import type { AccountSnapshot } from '../../domain/reown/model';
import type { AccountsMove, ReownPort } from '../../domain/reown/port';
import { toAttributes } from '../table/attributes';
import { type ItemKey, keys } from '../table/keys';
import { getItem } from '../table/reads';
import { storageError } from '../table/sdk-errors';
import { retryPolicy, type StoreOptions, transactWithRetry } from '../table/transact';
import { checkpointItem, moveAccountItem, moveGateInput, toCheckpoint, toSnapshot } from './items';
import { counterpartiesOf, ownedKindFinders } from './kinds';
import { createReownLeases } from './lease';

/** Groups moved at once within a page: quick on a real table, gentle on DynamoDB Local. */
const PARALLEL_MOVES = 8;

/** The DynamoDB side of re-owning (functions/domain/reown/service.ts). */
export function createReownStore(options: StoreOptions): ReownPort {
  const { client, tableName } = options;
  const finders = ownedKindFinders(client, tableName);
  const retry = retryPolicy(options);

  return {
    ...createReownLeases(client, tableName),

    async getAccount(accountId) {
      const item = await getItem(client, tableName, keys.account(accountId));
      return item ? toSnapshot(item) : undefined;
    },

    linkedAccounts: (accountId) => counterpartiesOf(client, tableName, accountId),

    async readCheckpoint(accountId) {
      const item = await getItem(client, tableName, keys.reownCheckpoint(accountId));
      return item ? toCheckpoint(item) : undefined;
    },

    async saveCheckpoint(checkpoint) {
      const outcome = await transactWithRetry(
        client,
        [{ role: 'checkpoint', item: checkpointItem(tableName, checkpoint) }],
        retry,
      );
      return outcome.kind === 'committed';
    },

    async moveOwned(kind, accountIds, move, cursor) {
      const page = await finders[kind](accountIds, cursor);
      let moved = 0;
      const groups = [...page.groups];
      const lane = async () => {
        for (let group = groups.shift(); group; group = groups.shift()) {
          if (await moveGroup(client, tableName, group, move)) moved += 1;
        }
      };
      await Promise.all(Array.from({ length: PARALLEL_MOVES }, lane));
      return {
        seen: page.seen,
        moved,
        ...(page.cursor === undefined ? {} : { cursor: page.cursor }),
      };
    },

    async moveAccounts(accounts, move, checkpoint): Promise<AccountsMove> {
      await moveGates(client, tableName, accounts, move);
      const outcome = await transactWithRetry(
        client,
        [
          ...accounts.map((account) => ({
            role: `account:${account.id}`,
            item: moveAccountItem(tableName, account, move),
          })),
          { role: 'checkpoint', item: checkpointItem(tableName, checkpoint) },
        ],
        retry,
      );
      if (outcome.kind === 'committed') return { kind: 'moved' };
      if (outcome.failed.has('checkpoint')) return { kind: 'checkpoint_moved' };
      for (const [, old] of outcome.failed) {
        const account: AccountSnapshot | undefined = old ? toSnapshot(old) : undefined;
        if (account && account.ownerId !== move.from && account.ownerId !== move.to) {
          return { kind: 'owner_changed', account };
        }
      }
      return { kind: 'changed' };
    },
  };
}

/**
 * `ownerId = to` on every item of one group, first item first, each only while its owner is
 * `from` (docs/contract.md §30: a run that lost its lease cannot take an item another run moved);
 * a repair run (`from === to`, the account already moved the old way) takes any item not yet
 * `to`. True when the first item moved now. An item that is gone, or not `from`'s, is skipped.
 */
async function moveGroup(
  client: DynamoDBClient,
  tableName: string,
  group: readonly ItemKey[],
  move: { readonly from: string; readonly to: string },
): Promise<boolean> {
  const repair = move.from === move.to;
  let moved = false;
  for (const [index, key] of group.entries()) {
    try {
      await client.send(
        new UpdateItemCommand({
          TableName: tableName,
          Key: toAttributes(key),
          UpdateExpression: 'SET #ownerId = :to',
          ConditionExpression: `attribute_exists(pk) AND #ownerId ${repair ? '<> :to' : '= :from'}`,
          ExpressionAttributeNames: { '#ownerId': 'ownerId' },
          ExpressionAttributeValues: toAttributes({
            ':to': move.to,
            ...(repair ? {} : { ':from': move.from }),
          }),
        }),
      );
      if (index === 0) moved = true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) continue;
      throw storageError(error);
    }
  }
  return moved;
}

/**
 * The gates of the deferred accounts among `accounts`, to the new owner first (a gate whose owner
 * is neither is left: its account's move then reports the owner change). A credit meanwhile is
 * accepted for the new owner and posted to the account, which moves next.
 */
async function moveGates(
  client: DynamoDBClient,
  tableName: string,
  accounts: readonly AccountSnapshot[],
  move: { readonly from: string; readonly to: string },
): Promise<void> {
  const gates = accounts.flatMap((account) =>
    Array.from({ length: account.intakeShards ?? 0 }, (_, shard) =>
      moveGateInput(tableName, account.id, shard, move),
    ),
  );
  for (const input of gates) {
    try {
      await client.send(new UpdateItemCommand(input));
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw storageError(error);
    }
  }
}
