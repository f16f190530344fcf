import { MAX_COALESCED_OPERATIONS } from '../../contract/batches';
import { MAX_TRANSACTION_ITEMS } from '../../contract/events';
import { resolveEffectiveAt } from '../accounts/effective-at';
import type {
  LedgerTransactionInput,
  LedgerTransactionRecord,
} from '../accounts/ledger-transaction-record';
import { isCreditDirection } from '../accounts/model';
import { intakeShardOf } from '../accounts/pending-credits';
import type { PostTransactionInput } from '../accounts/service';
import type { TransferRecord } from '../accounts/transfer-record';
import type { Json } from '../idempotency/fingerprint';
import type { KeyRequest } from '../idempotency/idempotent-command';
import type { StoredResponse } from '../idempotency/model';
import { OPERATION_IDS } from '../idempotency/operations';
import type { IdempotencyClaim } from '../idempotency/port';
import { type IntakeRoutes, NO_INTAKE } from '../movements/intake';
import type { MovementLeg } from '../movements/legs';
import type { TransferInput } from '../movements/transfer';
import { EffectiveTimeRefused } from '../shared/errors';

export type { BatchMode, BatchOp } from '../../contract/batches';

/**
 * One operation of a batch (docs/contract.md §25): exactly the single route's request under
 * its own key. `rawBody` is what that route's fingerprint covers (its body as received, ids
 * lower-cased as that route's handler does).
 */
export type BatchOperation =
  | {
      readonly op: 'credit' | 'debit';
      readonly key: string;
      readonly accountId: string;
      readonly input: PostTransactionInput;
      readonly rawBody: Json;
    }
  | {
      readonly op: 'transfer';
      readonly key: string;
      readonly input: TransferInput;
      readonly rawBody: Json;
    }
  | {
      readonly op: 'ledger_transaction';
      readonly key: string;
      readonly input: LedgerTransactionInput;
      readonly rawBody: Json;
    };

/**
 * Every operation's `effectiveAt` can apply (docs/contract.md §26), checked before anything is
 * claimed: else the batch is `400 validation_failed` naming the operation
 * (`body.operations.<i>.body.effectiveAt`) and no operation has run — unless the operation's own
 * key holds a record (`stored`): a retry of it replays, its time judged on the first attempt only
 * (§31).
 */
export async function refuseEffectiveTimes(
  operations: readonly BatchOperation[],
  now: Date,
  backdateLimitDays: number,
  stored: (operation: BatchOperation) => Promise<boolean>,
): Promise<void> {
  for (const [index, operation] of operations.entries()) {
    const path = `body.operations.${index}.body.effectiveAt` as const;
    try {
      resolveEffectiveAt(operation.input.effectiveAt, now, backdateLimitDays, path);
    } catch (error) {
      if (!(error instanceof EffectiveTimeRefused) || !(await stored(operation))) throw error;
    }
  }
}

/**
 * Postings made ready to write, by index; those whose `effectiveAt` aged since their first
 * attempt are set apart (`aged`): each replays through its single route (§31).
 */
export function planApart(all: readonly number[], plan: (index: number) => PlannedMovement) {
  const ready = { indexes: [] as number[], planned: [] as PlannedMovement[], aged: [] as number[] };
  for (const index of all) {
    try {
      ready.planned.push(plan(index));
      ready.indexes.push(index);
    } catch (error) {
      if (!(error instanceof EffectiveTimeRefused)) throw error;
      ready.aged.push(index);
    }
  }
  return ready;
}

/** The single route's request an operation is, under its own key (its fingerprint's parts). */
export function singleRequest(operation: BatchOperation): KeyRequest {
  switch (operation.op) {
    case 'credit':
    case 'debit':
      return {
        operation: OPERATION_IDS.postTransaction,
        pathParameters: { accountId: operation.accountId },
        rawBody: operation.rawBody,
      };
    case 'transfer':
      return {
        operation: OPERATION_IDS.createTransfer,
        pathParameters: {},
        rawBody: operation.rawBody,
      };
    case 'ledger_transaction':
      return {
        operation: OPERATION_IDS.createLedgerTransaction,
        pathParameters: {},
        rawBody: operation.rawBody,
      };
  }
}

/** One operation's answer: what the single route would have answered (docs/contract.md §25). */
export interface OperationResult {
  readonly key: string;
  readonly response: StoredResponse;
  readonly replayed: boolean;
}

/**
 * An operation made ready to write: its claim (the single route's, first response rendered),
 * its legs (one per account it moves) and the record a transfer or ledger transaction keeps.
 */
export interface PlannedMovement {
  readonly claim: IdempotencyClaim;
  readonly legs: readonly MovementLeg[];
  /** The operation's index in its batch: its entries' place among one commit's (§36). */
  readonly position?: number;
  readonly record?:
    | { readonly kind: 'transfer'; readonly transfer: TransferRecord }
    | { readonly kind: 'ledger_transaction'; readonly record: LedgerTransactionRecord };
}

/** The items of a `paymentId`: one per movement that carries one (its entry's account). */
export function paymentKeys(movement: PlannedMovement): string[] {
  return movement.legs
    .filter(({ entry }) => entry.paymentId !== undefined)
    .map(({ entry }) => JSON.stringify([entry.accountId, entry.paymentId]));
}

/**
 * The items a set of movements writes in ONE transaction, counted after routing
 * (docs/contract.md §25): one update per account item they touch (two actions on one item are
 * refused by DynamoDB) and one per intake gate (account, shard) a credit routed to intake
 * touches; then per movement its claim, per leg an entry and its pointer (or, routed to intake,
 * one pending credit), its record (transfer, ledger transaction) and its paymentId item.
 */
export function itemsOf(
  movements: readonly PlannedMovement[],
  extra = 0,
  intake: IntakeRoutes = NO_INTAKE,
): number {
  const updates = new Set<string>();
  let own = 0;
  for (const movement of movements) {
    own += 1 + (movement.record ? 1 : 0) + paymentKeys(movement).length;
    for (const { entry } of movement.legs) {
      const shards = isCreditDirection(entry) ? intake.get(entry.accountId) : undefined;
      if (shards === undefined) {
        updates.add(JSON.stringify([entry.accountId]));
        own += 2;
      } else {
        updates.add(JSON.stringify([entry.accountId, intakeShardOf(entry.id, shards)]));
        own += 1;
      }
    }
  }
  return updates.size + own + extra;
}

/**
 * Where a set of movements cannot share one transaction as it stands: the index of the first
 * movement that names a paymentId an earlier one holds, or moves an account in another
 * currency than an earlier one did (one of the two is refused, whichever the account holds).
 */
export function firstClash(movements: readonly PlannedMovement[]): number | undefined {
  const payments = new Set<string>();
  const currencies = new Map<string, string>();
  for (const [index, movement] of movements.entries()) {
    for (const { entry } of movement.legs) {
      const known = currencies.get(entry.accountId);
      if (known !== undefined && known !== entry.currency) return index;
      currencies.set(entry.accountId, entry.currency);
    }
    for (const key of paymentKeys(movement)) {
      if (payments.has(key)) return index;
      payments.add(key);
    }
  }
  return undefined;
}

/**
 * Cuts the postings of one account, in request order, into the chunks an independent batch
 * writes (docs/contract.md §25), routed as `intake` says: at most MAX_COALESCED_OPERATIONS and 100 items each, one
 * currency, no paymentId twice. Each element is an index into `movements`.
 */
export function coalesce(
  movements: readonly PlannedMovement[],
  intake: IntakeRoutes = NO_INTAKE,
): number[][] {
  const chunks: number[][] = [];
  let chunk: number[] = [];
  const members = () => chunk.map((i) => movements[i] as PlannedMovement);
  movements.forEach((movement, index) => {
    const candidate = [...members(), movement];
    const fits =
      chunk.length < MAX_COALESCED_OPERATIONS &&
      itemsOf(candidate, 0, intake) <= MAX_TRANSACTION_ITEMS &&
      firstClash(candidate) === undefined;
    if (!fits && chunk.length > 0) {
      chunks.push(chunk);
      chunk = [];
    }
    chunk.push(index);
  });
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}
