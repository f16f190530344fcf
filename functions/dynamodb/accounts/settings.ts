import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { withMetadata } from '../../domain/accounts/metadata';
import type { AccountRecord } from '../../domain/accounts/model';
import type { SettingsPort, SettingsResult } from '../../domain/accounts/port';
import { claimedFailure, claimItem, claimRecorder } from '../idempotency/command';
import { gateParts } from '../intake/gates';
import { keys } from '../table/keys';
import { getItems } from '../table/reads';
import {
  retryPolicy,
  type StoreOptions,
  type TransactPart,
  transactWithRetry,
} from '../table/transact';
import { CLOSED_THROUGH } from './effective-history';
import { toAccountRecord } from './items';
import { metadataChange, toMetadata } from './metadata';

/**
 * A settings change (docs/contract.md §24): overdraftLimit, `spendable` (= available +
 * overdraftLimit, what every guard draws on; functions/dynamodb/movements/account-change.ts),
 * the intake mode and `intakeShards`, while the account is exactly as read — its owner,
 * `updatedAt` (every movement sets it), balance, available, `closedThrough` (a period close does
 * not set `updatedAt`) and open. No money moves: no `version`, no journal record.
 */
export function settingsAccountItem(
  tableName: string,
  read: AccountRecord,
  next: AccountRecord,
): TransactWriteItem {
  const names: Record<string, string> = {
    '#ownerId': 'ownerId',
    '#updatedAt': 'updatedAt',
    '#balance': 'balance',
    '#available': 'available',
    '#status': 'status',
    '#closedThrough': CLOSED_THROUGH,
    '#overdraftLimit': 'overdraftLimit',
    '#spendable': 'spendable',
    '#creditIntake': 'creditIntake',
  };
  const values: Record<string, unknown> = {
    ':ownerId': read.ownerId,
    ':seen': read.updatedAt,
    ':balance': read.balance,
    ':available': read.available,
    ':closed': 'closed',
    ':overdraftLimit': next.overdraftLimit,
    ':spendable': next.available + next.overdraftLimit,
    ':creditIntake': next.creditIntake,
    ':at': next.updatedAt,
  };
  let set =
    'SET #overdraftLimit = :overdraftLimit, #spendable = :spendable, ' +
    '#creditIntake = :creditIntake, #updatedAt = :at';
  if (next.intakeShards !== undefined) {
    names['#intakeShards'] = 'intakeShards';
    values[':intakeShards'] = next.intakeShards;
    set += ', #intakeShards = :intakeShards';
  }
  let closedThrough = 'attribute_not_exists(#closedThrough)';
  if (read.closedThrough !== undefined) {
    values[':closedThrough'] = read.closedThrough;
    closedThrough = '#closedThrough = :closedThrough';
  }
  return {
    Update: {
      TableName: tableName,
      Key: marshall(keys.account(read.id)),
      UpdateExpression: set,
      ConditionExpression:
        'attribute_exists(pk) AND #ownerId = :ownerId AND #updatedAt = :seen AND ' +
        '#balance = :balance AND ' +
        // Accounts from before holds have no `available`: it equals the balance (§11).
        '((attribute_exists(#available) AND #available = :available) OR ' +
        '(attribute_not_exists(#available) AND #balance = :available)) AND ' +
        `${closedThrough} AND (attribute_not_exists(#status) OR #status <> :closed)`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: marshall(values),
    },
  };
}

type Role = 'claim' | 'account' | 'metadata' | `gate:${number}`;

/** The metadata item's change, guarded by the account's own condition (`updatedAt`). */
function metadataParts(tableName: string, read: AccountRecord, next: AccountRecord) {
  const item = metadataChange(tableName, read, next);
  return item ? [{ role: 'metadata' as const, item }] : [];
}

/** The settings feature's port on the table. */
export function createSettingsStore(options: StoreOptions): SettingsPort {
  const { client, tableName } = options;
  const retry = retryPolicy(options);

  return {
    async getAccount(accountId) {
      // One BatchGetItem: the account and its metadata item (docs/contract.md §34).
      const [item, meta] = await getItems(client, tableName, [
        keys.account(accountId),
        keys.accountMetadata(accountId),
      ]);
      const metadata = toMetadata(meta?.metadata);
      return item ? { ...toAccountRecord(item), ...withMetadata(metadata) } : undefined;
    },

    async updateSettings(claim, read, next, gates): Promise<SettingsResult> {
      const parts: TransactPart<Role>[] = [
        { role: 'claim', item: claimItem(tableName, claim), decisive: true },
        { role: 'account', item: settingsAccountItem(tableName, read, next) },
        ...metadataParts(tableName, read, next),
        ...(gates ? gateParts(tableName, next) : []),
      ];
      const outcome = await transactWithRetry(client, parts, retry);
      if (outcome.kind === 'committed') return outcome;
      return claimedFailure(outcome.failed) ?? { kind: 'account_moved' };
    },

    ...claimRecorder(client, tableName, retry),
  };
}
