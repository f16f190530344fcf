import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { MAX_BALANCE } from '../../domain/accounts/money';
import { keys } from '../table/keys';

/**
 * One change to an account's `balance` and `available` (docs/architecture.md "Holds and
 * available"). An account written before holds existed has no `available`; it counts as equal
 * to `balance` (docs/contract.md §11): every update starts from `if_not_exists(available,
 * balance)` and every guard accepts either form, so no backfill is needed.
 *
 * Overdraft (§17): a condition cannot add two attributes, so the account keeps `spendable`
 * (= available + overdraftLimit), set at creation and moved by the same Δ in the same SET as
 * `available`. Guards draw on `spendable`; an account from before overdrafts has none and an
 * overdraftLimit of 0, so its guard is today's form, and its first update materialises it.
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
  /** What the account may draw on (available + overdraftLimit) must cover this amount. */
  readonly requireAvailableAtLeast?: number;
  /** The account must not be closed (every effect a caller or producer asks for, §17). */
  readonly requireOpen?: boolean;
}

/**
 * `spendable` covers :required; on an account without it, `available` does, or `balance` where
 * an older account has no `available` yet either.
 */
const SPENDABLE_COVERS =
  '((attribute_exists(#spendable) AND #spendable >= :required) OR ' +
  '(attribute_not_exists(#spendable) AND ' +
  '((attribute_exists(#available) AND #available >= :required) OR ' +
  '(attribute_not_exists(#available) AND #balance >= :required))))';

/** Older accounts have no `status`: they are open. */
export const ACCOUNT_OPEN = '(attribute_not_exists(#status) OR #status <> :closed)';

export function accountChangeItem(tableName: string, change: AccountChange): TransactWriteItem {
  const conditions = ['attribute_exists(pk)'];
  const names: Record<string, string> = {
    '#balance': 'balance',
    '#available': 'available',
    '#spendable': 'spendable',
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
  if (change.requireOpen) {
    conditions.push(ACCOUNT_OPEN);
    names['#status'] = 'status';
    values[':closed'] = 'closed';
  }
  if (change.requireAvailableAtLeast !== undefined) {
    conditions.push(SPENDABLE_COVERS);
    values[':required'] = change.requireAvailableAtLeast;
  }
  if (change.balanceDelta > 0) {
    // Never past 2^53 − 1: a larger number would be read back rounded (docs/contract.md §5).
    // `available` never exceeds `balance`, so this bounds it too.
    conditions.push('#balance <= :ceiling');
    values[':ceiling'] = MAX_BALANCE - change.balanceDelta;
  }
  return {
    Update: {
      TableName: tableName,
      Key: marshall(keys.account(change.accountId)),
      // Every right-hand side reads the values from before this update.
      UpdateExpression:
        'SET #balance = #balance + :balanceDelta, ' +
        '#available = if_not_exists(#available, #balance) + :availableDelta, ' +
        '#spendable = if_not_exists(#spendable, if_not_exists(#available, #balance)) + :availableDelta, ' +
        '#updatedAt = :at',
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: marshall(values),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}
