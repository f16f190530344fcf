import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { signedAmount } from '../../domain/accounts/model';
import type { PlannedMovement } from '../../domain/batches/model';
import type { IdempotencyClaim } from '../../domain/idempotency/port';
import { intakeShardOf, isCreditDirection } from '../../domain/intake/model';
import { type IntakeRoutes, NO_INTAKE } from '../../domain/movements/intake';
import type { MovementLeg } from '../../domain/movements/legs';
import { newEntryItems, paymentItem } from '../accounts/entries';
import { claimItem } from '../idempotency/command';
import { gateIntakeItem, pendingCreditItem } from '../intake/items';
import { recordItem } from '../ledger-transactions/items';
import { accountChangeItem } from '../movements/account-change';
import { legChange } from '../movements/legs';
import { requestPosition } from '../statements/items';
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
  | `gate:${string}`
  | `pending:${number}`
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
function accountParts(
  tableName: string,
  movements: readonly PlannedMovement[],
  intake: IntakeRoutes,
) {
  const byAccount = new Map<string, MovementLeg[]>();
  for (const { legs } of movements) {
    for (const leg of legs) {
      if (deferredShards(leg, intake) !== undefined) continue;
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

/** The shards of a credit-direction leg into a deferred account named in `intake`. */
const deferredShards = ({ entry }: MovementLeg, intake: IntakeRoutes) =>
  isCreditDirection(entry) ? intake.get(entry.accountId) : undefined;

/**
 * The gates of the batch's deferred credits (docs/contract.md §24): ONE update per (account,
 * shard) counting all of its credits in, guarded as the first of them asks and no earlier than
 * the earliest effective time among them; role `gate:<accountId>:<shard>`.
 */
function gateParts(
  tableName: string,
  movements: readonly PlannedMovement[],
  intake: IntakeRoutes,
): TransactPart<BatchRole>[] {
  const byGate = new Map<string, { accountId: string; shard: number; legs: MovementLeg[] }>();
  for (const { legs } of movements) {
    for (const leg of legs) {
      const shards = deferredShards(leg, intake);
      if (shards === undefined) continue;
      const shard = intakeShardOf(leg.entry.id, shards);
      const id = `${leg.entry.accountId}:${shard}`;
      const gate = byGate.get(id) ?? { accountId: leg.entry.accountId, shard, legs: [] };
      gate.legs.push(leg);
      byGate.set(id, gate);
    }
  }
  return [...byGate].map(([id, { accountId, shard, legs }]) => {
    const [first] = legs;
    const earliest = legs.map(({ entry }) => entry.effectiveAt).sort()[0];
    const guard = { ...(first as MovementLeg).guard, effectiveAt: earliest };
    return {
      role: `gate:${id}` as const,
      item: gateIntakeItem(tableName, accountId, shard, guard, legs.length),
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
  options: {
    readonly batchClaim?: IdempotencyClaim;
    readonly probe?: boolean;
    readonly intake?: IntakeRoutes;
  },
): TransactPart<BatchRole>[] {
  const intake = options.intake ?? NO_INTAKE;
  const parts: TransactPart<BatchRole>[] = [];
  if (options.batchClaim) {
    parts.push({ role: 'batch', item: claimItem(tableName, options.batchClaim), decisive: true });
  }
  parts.push(
    ...accountParts(tableName, movements, intake),
    ...gateParts(tableName, movements, intake),
  );
  movements.forEach((movement, i) => {
    parts.push({ role: `claim:${i}`, item: claimItem(tableName, movement.claim), decisive: true });
    for (const [index, leg] of movement.legs.entries()) {
      const { entry } = leg;
      const shards = deferredShards(leg, intake);
      if (shards === undefined) {
        // Its place in the batch's request orders it among entries of the same commit (§36).
        const position = requestPosition(movement.position ?? i, index);
        const [listed, pointer] = newEntryItems(tableName, entry, position);
        parts.push({ role: `entry:${i}`, item: listed }, { role: `pointer:${i}`, item: pointer });
      } else {
        const shard = intakeShardOf(entry.id, shards);
        const pending = pendingCreditItem(tableName, { entry, acceptedAt: entry.createdAt, shard });
        parts.push({ role: `pending:${i}`, item: pending });
      }
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
