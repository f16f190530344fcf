import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { ACCOUNT_ITEM_KIND } from '../../contract/names';
import type { AccountRecord } from '../../domain/accounts/model';
import { accountIndexAttributes } from '../table/account-index';
import { putNew } from '../table/attributes';
import { keys } from '../table/keys';
import { CLOSED_THROUGH, newAccountHistory } from './effective-history';

export { entryItem, paymentItem, toLedgerEntry } from './entries';

/** Set on accounts created with the journal: their record 1 starts from zeros (§15). */
export const JOURNAL_FROM_CREATION = 'journalFromCreation';

/**
 * A new account: open, with `spendable` = available + overdraftLimit (docs/contract.md §17),
 * at `version` 0 and marked as created with the journal, so the projector starts its journal
 * from zeros (§15); accounts from before the journal have neither attribute.
 */
export function newAccountItem(tableName: string, record: AccountRecord): TransactWriteItem {
  // Metadata has its own item (./metadata.ts), never the hot account item (§36).
  const { metadata: _metadata, ...account } = record;
  return putNew(tableName, {
    ...keys.account(account.id),
    kind: ACCOUNT_ITEM_KIND,
    ...account,
    spendable: account.available + account.overdraftLimit,
    [JOURNAL_FROM_CREATION]: true,
    // The console's account directory (../table/account-index.ts): recent, owner, name.
    ...accountIndexAttributes(account),
    ...newAccountHistory(),
  });
}

const optionalText = (value: unknown) => (typeof value === 'string' ? value : undefined);

export function toAccountRecord(item: Record<string, unknown>): AccountRecord {
  return {
    id: String(item.id),
    ownerId: String(item.ownerId),
    currency: String(item.currency),
    balance: Number(item.balance),
    // Accounts from before holds have no `available`: it equals the balance (docs/contract.md §11).
    available: Number(item.available ?? item.balance),
    // Accounts from before overdrafts and closing: no overdraft, open (§17).
    overdraftLimit: Number(item.overdraftLimit ?? 0),
    status: item.status === 'closed' ? 'closed' : 'open',
    name: optionalText(item.name),
    // Accounts from before the journal count their changes from its first one (§15).
    version: Number(item.version ?? 0),
    ...(typeof item[CLOSED_THROUGH] === 'string' ? { closedThrough: item[CLOSED_THROUGH] } : {}),
    // Accounts from before deferred credits take them directly (§24).
    creditIntake: item.creditIntake === 'deferred' ? 'deferred' : 'direct',
    ...(typeof item.intakeShards === 'number' ? { intakeShards: item.intakeShards } : {}),
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
  };
}

/** An account's figures as the journal and the monitors read them, defaulted as above. */
export function accountFigures(accountId: string, item: Record<string, unknown>) {
  const { ownerId, balance, available, version } = toAccountRecord(item);
  return { accountId, ownerId, balance, available, version };
}

/** Available, or balance on an account from before holds, is 0. */
const NOTHING_AVAILABLE =
  '((attribute_exists(#available) AND #available = :zero) OR attribute_not_exists(#available))';

/**
 * Closing (docs/contract.md §17): status only, while the account is exactly as read — its owner
 * and `updatedAt` (so no change slipped in between), balance and available 0, still open. No
 * money moves, so this is not an account change (no `version`, no journal record).
 */
export function closeAccountItem(
  tableName: string,
  read: AccountRecord,
  at: string,
): TransactWriteItem {
  return {
    Update: {
      TableName: tableName,
      Key: marshall(keys.account(read.id)),
      UpdateExpression: 'SET #status = :closed, #closedAt = :at, #updatedAt = :at',
      ConditionExpression:
        'attribute_exists(pk) AND #ownerId = :ownerId AND #updatedAt = :seen AND ' +
        `#balance = :zero AND ${NOTHING_AVAILABLE} AND ` +
        '(attribute_not_exists(#status) OR #status <> :closed)',
      ExpressionAttributeNames: {
        '#status': 'status',
        '#closedAt': 'closedAt',
        '#updatedAt': 'updatedAt',
        '#ownerId': 'ownerId',
        '#balance': 'balance',
        '#available': 'available',
      },
      ExpressionAttributeValues: marshall({
        ':closed': 'closed',
        ':at': at,
        ':ownerId': read.ownerId,
        ':seen': read.updatedAt,
        ':zero': 0,
      }),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}
