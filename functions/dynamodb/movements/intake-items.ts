import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { AccountRecord } from '../../domain/accounts/model';
import type { PendingCredit } from '../../domain/accounts/pending-credits';
import type { EntryGuard } from '../../domain/movements/guard';
import { putNew } from '../table/attributes';
import { keys } from '../table/keys';

/**
 * The items of a leg routed to intake (docs/contract.md §24; docs/architecture.md "One write
 * path"): the gate that counts it in and the pending credit beside it, and how a refusing gate
 * reads back. The composer writes them; `dynamodb/intake/` (gates, the folder) builds on them.
 */
export const PENDING_CREDIT_KIND = 'pending-credit';
/** A pending credit the folder can never post, set aside (docs/contract.md §36). */
export const SET_ASIDE_CREDIT_KIND = 'set-aside-credit';

/**
 * Intake through one gate: counts `count` credits in (`accepted` + count) while the
 * gate says what the account's own guard would ask — deferred, the owner, the currency, open, and
 * the credit later than `closedThrough` (docs/contract.md §24, §26). ALL_OLD on refusal: a
 * missing or `direct` gate sends the credit back to the account item, the rest explain it.
 */
export function gateIntakeItem(
  tableName: string,
  accountId: string,
  shard: number,
  guard: EntryGuard,
  count = 1,
): TransactWriteItem {
  const conditions = ['attribute_exists(pk)', '#creditIntake = :deferred', '#currency = :currency'];
  const names: Record<string, string> = {
    '#creditIntake': 'creditIntake',
    '#currency': 'currency',
    '#accepted': 'accepted',
  };
  const values: Record<string, unknown> = {
    ':one': count,
    ':deferred': 'deferred',
    ':currency': guard.currency,
  };
  if (guard.ownerId !== undefined) {
    conditions.push('#ownerId = :ownerId');
    names['#ownerId'] = 'ownerId';
    values[':ownerId'] = guard.ownerId;
  }
  if (guard.requireOpen) {
    conditions.push('#status <> :closed');
    names['#status'] = 'status';
    values[':closed'] = 'closed';
  }
  if (guard.effectiveAt !== undefined) {
    conditions.push('(attribute_not_exists(#closedThrough) OR #closedThrough < :effectiveAt)');
    names['#closedThrough'] = 'closedThrough';
    values[':effectiveAt'] = guard.effectiveAt;
  }
  return {
    Update: {
      TableName: tableName,
      Key: marshall(keys.intakeGate(accountId, shard)),
      UpdateExpression: 'ADD #accepted :one',
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: marshall(values),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** The pending credit itself, beside its gate (never overwritten: its id is fixed at intake). */
export function pendingCreditItem(tableName: string, pending: PendingCredit): TransactWriteItem {
  const { entry, acceptedAt, shard } = pending;
  return putNew(tableName, {
    ...keys.pendingCredit(entry.accountId, shard, acceptedAt, entry.id),
    kind: PENDING_CREDIT_KIND,
    accountId: entry.accountId,
    entryId: entry.id,
    acceptedAt,
    shard,
    entry: { ...entry },
  });
}

/** The set-aside copy of a pending credit (§36): a new item, with why and when. */
export function setAsideCreditItem(
  tableName: string,
  pending: PendingCredit,
  reason: string,
  setAsideAt: string,
): TransactWriteItem {
  const { entry, acceptedAt, shard } = pending;
  return putNew(tableName, {
    ...keys.setAsideCredit(entry.accountId, shard, acceptedAt, entry.id),
    kind: SET_ASIDE_CREDIT_KIND,
    accountId: entry.accountId,
    entryId: entry.id,
    acceptedAt,
    shard,
    entry: { ...entry },
    reason,
    setAsideAt,
  });
}

/**
 * A refused gate read as the account it copies, for the refusal's explanation: a gate knows no
 * balance, and a credit's refusal never turns on one (the cap is the folder's, §24).
 */
export function gateAsAccount(item: Record<string, unknown>): AccountRecord {
  return {
    id: String(item.accountId),
    ownerId: String(item.ownerId),
    currency: String(item.currency),
    balance: 0,
    available: 0,
    overdraftLimit: 0,
    status: item.status === 'closed' ? 'closed' : 'open',
    creditIntake: item.creditIntake === 'deferred' ? 'deferred' : 'direct',
    version: 0,
    ...(typeof item.closedThrough === 'string' ? { closedThrough: item.closedThrough } : {}),
    createdAt: '',
    updatedAt: '',
  };
}
