import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { AccountRecord, LedgerEntry } from '../../domain/accounts/model';
import { intakeShardOf, type PendingCredit } from '../../domain/accounts/pending-credits';
import type { EntryGuard } from '../../domain/movements/guard';
import { toLedgerEntry } from '../accounts/entries';
import { gateIntakeItem, pendingCreditItem } from '../movements/intake-items';
import { keys } from '../table/keys';

/**
 * The intake partitions of a deferred account (docs/contract.md §24;
 * functions/dynamodb/table/keys.ts `intakeGate`, `pendingCredit`): a gate per shard that
 * guards intake as the account's own condition would, and the pending credits beside it.
 */
export const INTAKE_GATE_KIND = 'intake-gate';

export {
  gateAsAccount,
  gateIntakeItem,
  PENDING_CREDIT_KIND,
  pendingCreditItem,
  SET_ASIDE_CREDIT_KIND,
  setAsideCreditItem,
} from '../movements/intake-items';

/** What a gate copies of its account: what intake checks, nothing that moves with money. */
export type GateFields = Pick<
  AccountRecord,
  'id' | 'ownerId' | 'currency' | 'status' | 'creditIntake' | 'closedThrough'
>;

const GATE_NAMES = {
  '#ownerId': 'ownerId',
  '#currency': 'currency',
  '#status': 'status',
  '#creditIntake': 'creditIntake',
  '#accepted': 'accepted',
};

/**
 * Sets a gate's copy of the account (creation, turning deferred, closing, re-owning; a period
 * close fences the gates itself, functions/dynamodb/intake/partitions.ts `fenceGates`); its
 * `accepted` count starts at 0 and is never reset, so a gate that already counts credits keeps
 * counting them.
 */
export function gateSyncItem(
  tableName: string,
  account: GateFields,
  shard: number,
): TransactWriteItem {
  const values: Record<string, unknown> = {
    ':kind': INTAKE_GATE_KIND,
    ':accountId': account.id,
    ':ownerId': account.ownerId,
    ':currency': account.currency,
    ':status': account.status,
    ':creditIntake': account.creditIntake,
    ':zero': 0,
  };
  let closedThrough = '';
  if (account.closedThrough !== undefined) {
    values[':closedThrough'] = account.closedThrough;
    // Only ever raised (§36): a period close fences every existing gate before its account
    // moves, so an existing gate is never behind its account; a sync must not lower it.
    closedThrough = ', #closedThrough = if_not_exists(#closedThrough, :closedThrough)';
  }
  return {
    Update: {
      TableName: tableName,
      Key: marshall(keys.intakeGate(account.id, shard)),
      UpdateExpression:
        'SET #kind = :kind, #accountId = :accountId, #ownerId = :ownerId, ' +
        '#currency = :currency, #status = :status, #creditIntake = :creditIntake, ' +
        '#accepted = if_not_exists(#accepted, :zero)' +
        closedThrough,
      ExpressionAttributeNames: {
        ...GATE_NAMES,
        '#kind': 'kind',
        '#accountId': 'accountId',
        ...(account.closedThrough === undefined ? {} : { '#closedThrough': 'closedThrough' }),
      },
      ExpressionAttributeValues: marshall(values),
    },
  };
}

export function toPendingCredit(item: Record<string, unknown>): PendingCredit {
  return {
    entry: toLedgerEntry(item.entry as Record<string, unknown>),
    acceptedAt: String(item.acceptedAt),
    shard: Number(item.shard),
    ...(typeof item.setAsideAt === 'string'
      ? { setAside: { reason: String(item.reason), setAsideAt: item.setAsideAt } }
      : {}),
  };
}

/**
 * A credit into a deferred account (docs/contract.md §24): through its gate (counted in, guarded
 * as the account would be) and written as a pending credit in the gate's partition, accepted now
 * (`createdAt`, the movement's own time) with the entry id fixed.
 */
export function intakeItems(
  tableName: string,
  entry: LedgerEntry,
  guard: EntryGuard,
  shards: number,
): { readonly gate: TransactWriteItem; readonly pending: TransactWriteItem } {
  const shard = intakeShardOf(entry.id, shards);
  return {
    gate: gateIntakeItem(tableName, entry.accountId, shard, guard),
    pending: pendingCreditItem(tableName, { entry, acceptedAt: entry.createdAt, shard }),
  };
}

/**
 * Closing a deferred account (docs/contract.md §24): its gate turns `closed` while it accepted
 * exactly what was read, and the folder's count of that partition says all of it was posted
 * (`postedCheckItem`), in the closing transaction: no credit is accepted into a closed account
 * and none is left pending when it closes.
 */
export function gateCloseItem(
  tableName: string,
  accountId: string,
  shard: number,
  accepted: number,
): TransactWriteItem {
  return {
    Update: {
      TableName: tableName,
      Key: marshall(keys.intakeGate(accountId, shard)),
      UpdateExpression: 'SET #status = :closed',
      ConditionExpression: 'attribute_exists(pk) AND #accepted = :seen',
      ExpressionAttributeNames: { '#status': 'status', '#accepted': 'accepted' },
      ExpressionAttributeValues: marshall({ ':closed': 'closed', ':seen': accepted }),
    },
  };
}

/** The folder has posted exactly `posted` credits of this partition (none yet: no item). */
export function postedCheckItem(
  tableName: string,
  accountId: string,
  shard: number,
  posted: number,
): TransactWriteItem {
  return {
    ConditionCheck: {
      TableName: tableName,
      Key: marshall(keys.intakePosted(accountId, shard)),
      ConditionExpression:
        posted === 0 ? 'attribute_not_exists(pk) OR #posted = :seen' : '#posted = :seen',
      ExpressionAttributeNames: { '#posted': 'posted' },
      ExpressionAttributeValues: marshall({ ':seen': posted }),
    },
  };
}
