import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { signedAmount } from '../../domain/accounts/model';
import type { PlannedMovement } from '../../domain/batches/model';
import type { IdempotencyClaim } from '../../domain/idempotency/port';
import type { MovementLeg } from '../../domain/movements/legs';
import { newEntryItems, paymentItem } from '../accounts/entries';
import { claimItem } from '../idempotency/command';
import { recordItem } from '../ledger-transactions/items';
import { accountChangeItem } from '../movements/account-change';
import { legChange } from '../movements/legs';
import { keys } from '../table/keys';
import type { TransactPart } from '../table/transact';
import { transferRecordItem } from '../transfers/items';

/**
 * Roles of a batch's transaction (docs/contract.md §25): each movement's items by its position,
 * each account's one update by its id, the batch's own claim, and the probe.
 */
export type BatchRole =
  | `claim:${number}`
  | `account:${string}`
  | `entry:${number}`
  | `pointer:${number}`
  | `record:${number}`
  | `payment:${number}`
  | 'batch'
  | 'probe';

/** The key of the probe's condition: a scope id is 64 hex digits, so no record ever has it. */
const PROBE_KEY = keys.idempotency('batch-probe');

/**
 * ONE update per account carrying every leg of these movements on it, in order (two actions
 * on one item are a ValidationException, docs/contract.md §25): `version` grows by their
 * number; the guard is the legs' (owner, currency, open) with the largest running draw-down, so
 * each debit is covered at its turn; the balance cap follows the highest running increase.
 */
function accountParts(tableName: string, movements: readonly PlannedMovement[]) {
  const byAccount = new Map<string, MovementLeg[]>();
  for (const { legs } of movements) {
    for (const leg of legs) {
      byAccount.set(leg.entry.accountId, [...(byAccount.get(leg.entry.accountId) ?? []), leg]);
    }
  }
  return [...byAccount].map(([accountId, legs]): TransactPart<BatchRole> => {
    let running = 0;
    let drawdown = 0;
    for (const { entry } of legs) {
      running += signedAmount(entry);
      drawdown = Math.max(drawdown, -running);
    }
    const first = legs[0]?.guard;
    return {
      role: `account:${accountId}`,
      item: accountChangeItem(tableName, {
        accountId,
        changes: legs.map(({ entry }) => legChange(entry, signedAmount(entry))),
        ownerId: first?.ownerId,
        currency: first?.currency,
        requireOpen: legs.some(({ guard }) => guard.requireOpen),
        requireAvailableAtLeast: legs.some(({ guard }) => guard.requireAvailableAtLeast)
          ? drawdown
          : undefined,
      }),
    };
  });
}

function probeItem(tableName: string): TransactWriteItem {
  return {
    ConditionCheck: {
      TableName: tableName,
      Key: marshall(PROBE_KEY),
      ConditionExpression: 'attribute_exists(pk)',
    },
  };
}

/**
 * Every item of a batch's transaction: the batch's claim (atomic), the accounts' updates, then
 * per movement its claim (decisive: a live record settles the attempt), its entries and
 * pointers, its record and its paymentId item; the probe last. `domain/batches/model.ts`
 * guarantees no item twice and at most 100.
 */
export function batchParts(
  tableName: string,
  movements: readonly PlannedMovement[],
  options: { readonly batchClaim?: IdempotencyClaim; readonly probe?: boolean },
): TransactPart<BatchRole>[] {
  const parts: TransactPart<BatchRole>[] = [];
  if (options.batchClaim) {
    parts.push({ role: 'batch', item: claimItem(tableName, options.batchClaim), decisive: true });
  }
  parts.push(...accountParts(tableName, movements));
  movements.forEach((movement, i) => {
    parts.push({ role: `claim:${i}`, item: claimItem(tableName, movement.claim), decisive: true });
    for (const { entry } of movement.legs) {
      const [listed, pointer] = newEntryItems(tableName, entry);
      parts.push({ role: `entry:${i}`, item: listed }, { role: `pointer:${i}`, item: pointer });
      const payment = paymentItem(tableName, entry);
      if (payment) parts.push({ role: `payment:${i}`, item: payment });
    }
    const record = movement.record;
    if (record?.kind === 'transfer') {
      parts.push({ role: `record:${i}`, item: transferRecordItem(tableName, record.transfer) });
    } else if (record?.kind === 'ledger_transaction') {
      parts.push({ role: `record:${i}`, item: recordItem(tableName, record.record) });
    }
  });
  if (options.probe) parts.push({ role: 'probe', item: probeItem(tableName) });
  return parts;
}
