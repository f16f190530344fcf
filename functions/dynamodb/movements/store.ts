import type { MovementWrite, Once } from '../../domain/movements/once';
import type { MovementPort } from '../../domain/movements/port';
import type { ReversalRejection } from '../../domain/movements/reversal';
import { newEntryItems } from '../accounts/entries';
import { holdChanged, settlementParts } from '../holds/items';
import { unexpectedFailure } from '../idempotency/command';
import { ledgerTransactionParts } from '../ledger-transactions/items';
import { reversalParts } from '../reversals/items';
import {
  retryPolicy,
  type StoreOptions,
  type TransactPart,
  transactWithRetry,
} from '../table/transact';
import { transferParts } from '../transfers/items';
import { legsRejection, rejectedLegs } from './legs';
import { type OnceContext, onceFailure, onceTransactOptions, withOnce } from './once';
import { postingItems, postingRejection } from './posting';

type Failed = ReadonlyMap<string, Record<string, unknown> | undefined>;

/**
 * The DynamoDB adapter of every movement (docs/contract.md §23): one method per movement, each
 * ONE TransactWriteItems of the claim `once` names and the movement's items. A first request,
 * its replay and a reused key each cost one call: the claim's ALL_OLD answers the latter two;
 * an event's inbox item tells a duplicate from an id conflict the same way.
 */
export function createMovementStore(options: StoreOptions): MovementPort {
  const { client, tableName } = options;
  const retry = retryPolicy(options);

  /** The claim and the movement in one transaction; a cancellation read claim first. */
  async function write<Rejection>(
    once: Once,
    context: OnceContext,
    movement: readonly TransactPart<string>[],
    refusal: (failed: Failed) => Rejection | undefined,
  ): Promise<MovementWrite<Rejection>> {
    const parts = withOnce(tableName, once, context, movement);
    const outcome = await transactWithRetry(client, parts, retry, onceTransactOptions(once));
    if (outcome.kind === 'committed') return outcome;
    if (outcome.kind === 'contended') return { kind: 'sequence_moved' };
    const answer = onceFailure(once, outcome.failed) ?? refusal(outcome.failed);
    if (answer === undefined) throw unexpectedFailure(outcome.failed);
    return answer;
  }

  return {
    post(once, { entry, guard }, intake) {
      const context = { entryId: entry.id, at: entry.createdAt };
      return write(once, context, postingItems(tableName, entry, guard, intake), postingRejection);
    },

    transfer(once, transfer, intake) {
      const [out] = transfer.legs;
      const context = { entryId: out.id, at: out.createdAt };
      return write(once, context, transferParts(tableName, transfer, intake), legsRejection);
    },

    ledgerTransaction(once, transaction, intake) {
      const { record, legs } = transaction;
      const context = { entryId: legs[0]?.entry.id ?? record.id, at: record.createdAt };
      const parts = ledgerTransactionParts(tableName, transaction, intake);
      return write(once, context, parts, legsRejection);
    },

    reverse(once, reversal, intake) {
      const first = reversal.legs[0]?.entry;
      const context = { entryId: first?.id ?? '', at: first?.createdAt ?? '' };
      return write(once, context, reversalParts(tableName, reversal, intake), reversalRejection);
    },

    capture(once, settlement, entry) {
      const parts = [
        ...settlementParts(tableName, settlement, entry.id),
        ...newEntryItems(tableName, entry).map((item) => ({ role: 'entry', item })),
      ];
      return write(once, { entryId: entry.id, at: entry.createdAt }, parts, (failed) =>
        holdChanged(failed, settlement),
      );
    },
  };
}

/** A cancelled reversal: the legs whose accounts refused, and the original's guard if it failed. */
function reversalRejection(failed: Failed): ReversalRejection | undefined {
  const legs = rejectedLegs(failed);
  const guardFailed = failed.has('original');
  if (legs.length === 0 && !guardFailed) return undefined;
  const original = failed.get('original');
  return {
    kind: 'reversal_rejected',
    legs,
    ...(guardFailed ? { reversedAmount: Number(original?.reversedAmount ?? 0) } : {}),
  };
}
