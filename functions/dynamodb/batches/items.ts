import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { PlannedMovement } from '../../domain/batches/model';
import type { IdempotencyClaim } from '../../domain/idempotency/port';
import type { IntakeRoutes } from '../../domain/movements/intake';
import { claimItem } from '../idempotency/command';
import { recordItem } from '../ledger-transactions/items';
import { type MoneyPlan, placedLegs } from '../movements/plan';
import { keys } from '../table/keys';
import { transferRecordItem } from '../transfers/items';

/** The key of the probe's condition: a scope id is 64 hex digits, so no record ever has it. */
const PROBE_KEY = keys.idempotency('batch-probe');

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
 * A batch's transaction as the one composer plans it (`dynamodb/movements/compose.ts`): the
 * batch's claim (atomic), then per movement its claim (decisive: a live record settles the
 * attempt), its legs (one update per account and per intake gate across the batch, each entry
 * and pointer or pending credit, its paymentId item) and its record; the probe last.
 * Roles: the composer's (`account:<id>`, `gate:<id>:<shard>`, `entry:<i>`, …), `claim:<i>`,
 * `record:<i>`, `batch`, `probe`. `domain/batches/model.ts` guarantees no item twice and at
 * most 100.
 */
export function batchPlan(
  tableName: string,
  movements: readonly PlannedMovement[],
  options: {
    readonly batchClaim?: IdempotencyClaim;
    readonly probe?: boolean;
    readonly intake?: IntakeRoutes;
  },
): MoneyPlan {
  return {
    ...(options.intake === undefined ? {} : { intake: options.intake }),
    head: options.batchClaim
      ? [{ role: 'batch', item: claimItem(tableName, options.batchClaim), decisive: true }]
      : [],
    movements: movements.map((movement, i) => ({
      before: [{ role: `claim:${i}`, item: claimItem(tableName, movement.claim), decisive: true }],
      // Each entry's place in the batch's request orders it among one commit's (§36).
      legs: placedLegs(movement.position ?? i, movement.legs),
      after: recordParts(tableName, movement, i),
    })),
    tail: options.probe ? [{ role: 'probe', item: probeItem(tableName) }] : [],
  };
}

function recordParts(tableName: string, movement: PlannedMovement, i: number) {
  const record = movement.record;
  if (record?.kind === 'transfer') {
    return [{ role: `record:${i}`, item: transferRecordItem(tableName, record.transfer) }];
  }
  if (record?.kind === 'ledger_transaction') {
    return [{ role: `record:${i}`, item: recordItem(tableName, record.record) }];
  }
  return [];
}
