import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import {
  type AccountSnapshot,
  type MovedCounts,
  NOTHING_MOVED,
  type ReownCheckpoint,
} from '../../domain/reown/model';
import { ACCOUNT_INDEX, searchText } from '../table/account-index';
import { toAttributes } from '../table/attributes';
import { keys } from '../table/keys';

/** `kind` of a re-own run's checkpoint item (`REOWN#<accountId>`). */
export const REOWN_CHECKPOINT_KIND = 'reown-checkpoint';

/** The checkpoint, written only over the version before it (none for version 1). */
export function checkpointItem(tableName: string, checkpoint: ReownCheckpoint): TransactWriteItem {
  const first = checkpoint.version === 1;
  return {
    Put: {
      TableName: tableName,
      Item: toAttributes({
        ...keys.reownCheckpoint(checkpoint.accountId),
        kind: REOWN_CHECKPOINT_KIND,
        ...checkpoint,
        accounts: checkpoint.accounts.map((a) => ({ ...a })),
        moved: { ...checkpoint.moved },
      }),
      ConditionExpression: first ? 'attribute_not_exists(pk)' : '#version = :previous',
      ...(first
        ? {}
        : {
            ExpressionAttributeNames: { '#version': 'version' },
            ExpressionAttributeValues: toAttributes({ ':previous': checkpoint.version - 1 }),
          }),
    },
  };
}

export function toCheckpoint(item: Record<string, unknown>): ReownCheckpoint {
  const accounts = Array.isArray(item.accounts) ? item.accounts : [];
  const moved = (item.moved ?? {}) as Partial<Record<keyof MovedCounts, unknown>>;
  return {
    accountId: String(item.accountId),
    from: String(item.from),
    to: String(item.to),
    accounts: accounts.map((a: Record<string, unknown>) => toSnapshot(a)),
    step: Number(item.step),
    ...(typeof item.cursor === 'string' ? { cursor: item.cursor } : {}),
    catchUp: item.catchUp === true,
    moved: Object.fromEntries(
      Object.entries(NOTHING_MOVED).map(([kind]) => [
        kind,
        Number(moved[kind as keyof MovedCounts] ?? 0),
      ]),
    ) as MovedCounts,
    startedAt: String(item.startedAt),
    updatedAt: String(item.updatedAt),
    version: Number(item.version),
  };
}

export function toSnapshot(item: Record<string, unknown>): AccountSnapshot {
  return {
    id: String(item.id),
    ownerId: String(item.ownerId),
    updatedAt: String(item.updatedAt),
    ...(typeof item.intakeShards === 'number' ? { intakeShards: item.intakeShards } : {}),
  };
}

/**
 * A deferred account's gate to `to` (docs/contract.md §24: a gate copies its account's owner),
 * while it belongs to `from` or already to `to`; moved just before its account.
 */
export function moveGateInput(
  tableName: string,
  accountId: string,
  shard: number,
  move: { readonly from: string; readonly to: string },
) {
  return {
    TableName: tableName,
    Key: toAttributes(keys.intakeGate(accountId, shard)),
    UpdateExpression: 'SET #ownerId = :to',
    ConditionExpression: 'attribute_exists(pk) AND (#ownerId = :from OR #ownerId = :to)',
    ExpressionAttributeNames: { '#ownerId': 'ownerId' },
    ExpressionAttributeValues: toAttributes({ ':from': move.from, ':to': move.to }),
  };
}

/**
 * An account to `to`, only while it belongs to `from` or already to `to`; with `unchanged`, also
 * only while its `updatedAt` is the snapshot's. `updatedAt` itself stays: ownership is not part of
 * the public account.
 */
export function moveAccountItem(
  tableName: string,
  account: AccountSnapshot,
  move: { readonly from: string; readonly to: string; readonly unchanged: boolean },
): TransactWriteItem {
  return {
    Update: {
      TableName: tableName,
      Key: toAttributes(keys.account(account.id)),
      // The owner directory's key follows the owner (../table/account-index.ts).
      UpdateExpression: 'SET #ownerId = :to, #ownerKey = :toKey',
      ConditionExpression:
        'attribute_exists(pk) AND (#ownerId = :from OR #ownerId = :to)' +
        (move.unchanged ? ' AND #updatedAt = :seen' : ''),
      ExpressionAttributeNames: {
        '#ownerId': 'ownerId',
        '#ownerKey': ACCOUNT_INDEX.ownerAttribute,
        ...(move.unchanged ? { '#updatedAt': 'updatedAt' } : {}),
      },
      ExpressionAttributeValues: toAttributes({
        ':from': move.from,
        ':to': move.to,
        ':toKey': searchText(move.to),
        ...(move.unchanged ? { ':seen': account.updatedAt } : {}),
      }),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}
