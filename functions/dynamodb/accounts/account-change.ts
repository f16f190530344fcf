import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { MAX_BALANCE } from '../../domain/accounts/money';
import { keys } from '../table/keys';

/**
 * One change to an account's `balance` and `available` (docs/architecture.md "Holds and
 * available"). An account written before holds existed has no `available`; it counts as equal
 * to `balance` (docs/contract.md §11): every update starts from `if_not_exists(available,
 * balance)` and every guard accepts either form, so no backfill is needed.
 */
export interface AccountChange {
  readonly accountId: string;
  readonly at: string;
  readonly balanceDelta: number;
  readonly availableDelta: number;
  /** The account must belong to this principal (HTTP); events and the sweeper skip it. */
  readonly ownerId?: string;
  /** The account must hold this currency. */
  readonly currency?: string;
  /** The effective available balance must cover this amount (debits, holds, transfers, fees). */
  readonly requireAvailableAtLeast?: number;
  /**
   * The highest the balance rises above its value before the update, when the update carries
   * several changes (their running sum peaks above the net delta). @default balanceDelta
   */
  readonly peakIncrease?: number;
}

/** `available`, or `balance` where an older account has no `available` yet, is at least :required. */
const AVAILABLE_COVERS =
  '((attribute_exists(#available) AND #available >= :required) OR ' +
  '(attribute_not_exists(#available) AND #balance >= :required))';

export function accountChangeItem(tableName: string, change: AccountChange): TransactWriteItem {
  const conditions = ['attribute_exists(pk)'];
  const names: Record<string, string> = {
    '#balance': 'balance',
    '#available': 'available',
    '#updatedAt': 'updatedAt',
  };
  const values: Record<string, unknown> = {
    ':balanceDelta': change.balanceDelta,
    ':availableDelta': change.availableDelta,
    ':at': change.at,
  };
  if (change.currency !== undefined) {
    conditions.push('#currency = :currency');
    names['#currency'] = 'currency';
    values[':currency'] = change.currency;
  }
  if (change.ownerId !== undefined) {
    conditions.push('#ownerId = :ownerId');
    names['#ownerId'] = 'ownerId';
    values[':ownerId'] = change.ownerId;
  }
  if (change.requireAvailableAtLeast !== undefined) {
    conditions.push(AVAILABLE_COVERS);
    values[':required'] = change.requireAvailableAtLeast;
  }
  const increase = change.peakIncrease ?? change.balanceDelta;
  if (increase > 0) {
    // Never past 2^53 − 1: a larger number would be read back rounded (docs/contract.md §5).
    // `available` never exceeds `balance`, so this bounds it too.
    conditions.push('#balance <= :ceiling');
    values[':ceiling'] = MAX_BALANCE - increase;
  }
  return {
    Update: {
      TableName: tableName,
      Key: marshall(keys.account(change.accountId)),
      // Both right-hand sides read the balance before this update.
      UpdateExpression:
        'SET #balance = #balance + :balanceDelta, ' +
        '#available = if_not_exists(#available, #balance) + :availableDelta, #updatedAt = :at',
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: marshall(values),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/**
 * One change an account update carries, as the journal (issue 18) will read it back from the
 * account item's stream: the kind, the deltas, the writer's time and the entry; no metadata.
 */
export interface ChangeDescriptor {
  readonly kind: 'credit' | 'debit';
  readonly balanceDelta: number;
  readonly availableDelta: number;
  readonly at: string;
  readonly entryId: string;
}

/** Most changes one account update carries (a batched event write's records). */
export const MAX_CHANGES_PER_UPDATE = 49;

/** The attribute holding the changes of the account's last update. */
export const LAST_CHANGES_ATTRIBUTE = 'lastChanges';

/**
 * ONE update of an account carrying several changes in order (a batched event write, docs/
 * contract.md §20): their deltas add up, `version` grows by their number and `lastChanges`
 * lists them. The guard covers the largest running draw-down (`requireAvailableAtLeast`) and
 * the balance stays within 2^53 − 1 at every change's turn, not only after the last.
 */
export function accountUpdateItem(
  tableName: string,
  update: {
    readonly accountId: string;
    readonly changes: readonly ChangeDescriptor[];
    readonly currency: string;
    readonly requireAvailableAtLeast: number | undefined;
  },
): TransactWriteItem {
  const { changes } = update;
  const last = changes.at(-1);
  if (!last || changes.length > MAX_CHANGES_PER_UPDATE) {
    throw new Error(`an account update carries 1 to ${MAX_CHANGES_PER_UPDATE} changes`);
  }
  let running = 0;
  let peak = 0;
  for (const change of changes) {
    running += change.balanceDelta;
    peak = Math.max(peak, running);
  }
  const item = accountChangeItem(tableName, {
    accountId: update.accountId,
    at: last.at,
    balanceDelta: running,
    availableDelta: changes.reduce((sum, c) => sum + c.availableDelta, 0),
    currency: update.currency,
    requireAvailableAtLeast: update.requireAvailableAtLeast,
    peakIncrease: peak,
  });
  const spec = item.Update;
  if (!spec) throw new Error('the account change builder builds an Update');
  return {
    Update: {
      ...spec,
      UpdateExpression: `${spec.UpdateExpression}, #version = if_not_exists(#version, :zero) + :n, #lastChanges = :lastChanges`,
      ExpressionAttributeNames: {
        ...spec.ExpressionAttributeNames,
        '#version': 'version',
        '#lastChanges': LAST_CHANGES_ATTRIBUTE,
      },
      ExpressionAttributeValues: {
        ...spec.ExpressionAttributeValues,
        ...marshall({ ':zero': 0, ':n': changes.length }),
        ':lastChanges': { L: changes.map((change) => ({ M: marshall({ ...change }) })) },
      },
    },
  };
}
