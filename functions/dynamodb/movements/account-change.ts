import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { ACCOUNT_CHANGES_ATTRIBUTE } from '../../contract/names';
import { MAX_BALANCE } from '../../domain/accounts/money';
import { type AccountChange, MAX_CHANGES_PER_UPDATE } from '../../domain/journal/model';
import { effectiveTimeOf } from '../../domain/statements/days';
import {
  CLOSED_THROUGH,
  EFFECTIVE_OPENING,
  EFFECTIVE_SINCE,
  monthAdds,
  monthSums,
} from '../accounts/effective-history';
import { toAttributes } from '../table/attributes';
import { keys } from '../table/keys';

/**
 * One update of an account's `balance` and `available` carrying one or more changes
 * (docs/architecture.md "Holds and available", "The journal"). An account written before holds
 * existed has no `available`; it counts as equal to `balance` (docs/contract.md §11): every
 * update starts from `if_not_exists(available, balance)` and every guard accepts either form,
 * so no backfill is needed.
 *
 * Overdraft (§17): a condition cannot add two attributes, so the account keeps `spendable`
 * (= available + overdraftLimit), set at creation and moved by the same Δ in the same SET as
 * `available`. Guards draw on `spendable`; an account from before overdrafts has none and an
 * overdraftLimit of 0, so its guard is today's form, and its first update materialises it.
 */
export interface AccountUpdate {
  readonly accountId: string;
  /**
   * The changes, in the order they happen (1 … MAX_CHANGES_PER_UPDATE): their deltas add up,
   * `version` grows by their number and `lastChanges` holds them for the journal projector.
   */
  readonly changes: readonly AccountChange[];
  /** The account must belong to this principal (HTTP); events and the sweeper skip it. */
  readonly ownerId?: string;
  /** The account must hold this currency. */
  readonly currency?: string;
  /**
   * What the account may draw on (spendable = available + overdraftLimit) must cover this
   * amount (debits, holds, transfers, fees, ledger legs): with several changes, the largest
   * running draw-down.
   */
  readonly requireAvailableAtLeast?: number;
  /** The account must not be closed (every effect a caller or producer asks for, §17). */
  readonly requireOpen?: boolean;
  /**
   * The folder posting pending credits (docs/contract.md §24): the one writer whose credits may
   * reach a deferred account's item. Every other update that credits the account requires it to
   * take credits directly, so a credit meant for intake is refused, never written here.
   */
  readonly postsPendingCredits?: boolean;
}

/** Credit-direction changes: what a deferred account takes through intake (§24). */
const INTAKE_KINDS: ReadonlySet<string> = new Set([
  'credit',
  'transfer_in',
  'ledger_credit',
  'reversal',
]);
const credits = (changes: readonly AccountChange[]) =>
  changes.some((change) => INTAKE_KINDS.has(change.kind) && change.balanceDelta > 0);

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

/**
 * The effective-time history a change of the balance adds to (docs/contract.md §26;
 * functions/dynamodb/accounts/effective-history.ts): the month sums (`ADD`, created on first
 * use) and, on an account older than effective dates, what it held before and from when
 * (`if_not_exists`: the first dated change fixes them). `earliest`: the earliest effective time
 * among them.
 */
function effectiveHistoryClauses(
  changes: readonly AccountChange[],
  names: Record<string, string>,
  values: Record<string, unknown>,
): { set: string; add: string; earliest?: string } {
  const months = monthSums(changes);
  if (months.size === 0) return { set: '', add: '' };
  const adds: string[] = [];
  let i = 0;
  for (const [month, sums] of months) {
    for (const [attribute, amount] of monthAdds(month, sums)) {
      if (amount === 0) continue;
      names[`#m${i}`] = attribute;
      values[`:m${i}`] = amount;
      adds.push(`#m${i} :m${i}`);
      i += 1;
    }
  }
  names['#effectiveOpening'] = EFFECTIVE_OPENING;
  names['#effectiveSince'] = EFFECTIVE_SINCE;
  // ISO instants in UTC: text order is time order.
  const [earliest] = changes
    .filter((change) => change.balanceDelta !== 0)
    .map(effectiveTimeOf)
    .sort();
  return {
    set:
      ', #effectiveOpening = if_not_exists(#effectiveOpening, #balance), ' +
      '#effectiveSince = if_not_exists(#effectiveSince, :at)',
    add: adds.length === 0 ? '' : ` ADD ${adds.join(', ')}`,
    earliest,
  };
}

/** The largest running sum of the balance deltas (0 if it never rises). */
function peakIncrease(changes: readonly AccountChange[]): number {
  let running = 0;
  let peak = 0;
  for (const change of changes) {
    running += change.balanceDelta;
    peak = Math.max(peak, running);
  }
  return peak;
}

/**
 * THE builder of every account update (credits, debits, fees, transfer legs, holds placed,
 * captured, voided and expired): balance, available, `updatedAt`, and in the same `SET`
 * `version = if_not_exists(version, 0) + n` and `lastChanges` (docs/contract.md §15).
 */
export function accountChangeItem(tableName: string, update: AccountUpdate): TransactWriteItem {
  const { changes } = update;
  const last = changes.at(-1);
  if (!last || changes.length > MAX_CHANGES_PER_UPDATE) {
    throw new Error(
      `an account update carries 1 to ${MAX_CHANGES_PER_UPDATE} changes, not ${changes.length}`,
    );
  }
  const conditions = ['attribute_exists(pk)'];
  const names: Record<string, string> = {
    '#balance': 'balance',
    '#available': 'available',
    '#spendable': 'spendable',
    '#updatedAt': 'updatedAt',
    '#version': 'version',
    '#lastChanges': ACCOUNT_CHANGES_ATTRIBUTE,
  };
  const values: Record<string, unknown> = {
    ':balanceDelta': changes.reduce((sum, c) => sum + c.balanceDelta, 0),
    ':availableDelta': changes.reduce((sum, c) => sum + c.availableDelta, 0),
    ':at': last.at,
    ':zero': 0,
    ':n': changes.length,
  };
  if (update.currency !== undefined) {
    conditions.push('#currency = :currency');
    names['#currency'] = 'currency';
    values[':currency'] = update.currency;
  }
  if (update.ownerId !== undefined) {
    conditions.push('#ownerId = :ownerId');
    names['#ownerId'] = 'ownerId';
    values[':ownerId'] = update.ownerId;
  }
  if (update.requireOpen) {
    conditions.push(ACCOUNT_OPEN);
    names['#status'] = 'status';
    values[':closed'] = 'closed';
  }
  if (update.requireAvailableAtLeast !== undefined) {
    conditions.push(SPENDABLE_COVERS);
    values[':required'] = update.requireAvailableAtLeast;
  }
  if (!update.postsPendingCredits && credits(changes)) {
    conditions.push('(attribute_not_exists(#creditIntake) OR #creditIntake <> :deferred)');
    names['#creditIntake'] = 'creditIntake';
    values[':deferred'] = 'deferred';
  }
  const dated = effectiveHistoryClauses(changes, names, values);
  if (dated.earliest !== undefined) {
    // docs/contract.md §26: nothing lands in a closed period, judged in this very write.
    conditions.push('(attribute_not_exists(#closedThrough) OR #closedThrough < :earliest)');
    names['#closedThrough'] = CLOSED_THROUGH;
    values[':earliest'] = dated.earliest;
  }
  const increase = peakIncrease(changes);
  if (increase > 0) {
    // Never past 2^53 − 1: a larger number would be read back rounded (docs/contract.md §5).
    // `available` never exceeds `balance`, so this bounds it too.
    conditions.push('#balance <= :ceiling');
    values[':ceiling'] = MAX_BALANCE - increase;
  }
  return {
    Update: {
      TableName: tableName,
      Key: marshall(keys.account(update.accountId)),
      // Every right-hand side reads the item from before this update.
      UpdateExpression:
        'SET #balance = #balance + :balanceDelta, ' +
        '#available = if_not_exists(#available, #balance) + :availableDelta, ' +
        '#spendable = if_not_exists(#spendable, if_not_exists(#available, #balance)) + :availableDelta, ' +
        '#updatedAt = :at, ' +
        '#version = if_not_exists(#version, :zero) + :n, #lastChanges = :lastChanges' +
        dated.set +
        dated.add,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: {
        ...marshall(values),
        // Absent ids are left out: each descriptor stays as small as its change.
        ':lastChanges': { L: changes.map((change) => ({ M: toAttributes({ ...change }) })) },
      },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}
