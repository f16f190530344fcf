import type { LedgerEntry } from '../../domain/accounts/model';
import { type MovementWrite, type Once, operationIndexOf } from '../../domain/movements/once';
import type { MovementPort } from '../../domain/movements/port';
import { transferMovement } from '../../domain/movements/transfer';
import { holdChanged, settlementPlan } from '../holds/items';
import { unexpectedFailure } from '../idempotency/command';
import { recordItem } from '../ledger-transactions/items';
import { reversalGuardParts } from '../reversals/items';
import { retryPolicy, type StoreOptions } from '../table/transact';
import { transferRecordItem } from '../transfers/items';
import { composeMoney } from './compose';
import { type Cancellation, commitMoney } from './decode';
import { type OnceContext, onceFailure, onceTransactOptions, withOnce } from './once';
import { entryLeg, type MoneyPlan, placedLegs } from './plan';
import { legsRejection, postingRejection, reversalRejection } from './refusals';

/**
 * The DynamoDB adapter of every movement (docs/contract.md §23): one method per movement, each
 * ONE TransactWriteItems of the claim `once` names and the movement's plan, composed by the one
 * composer (`compose.ts`) and its cancellation decoded by the one decoder (`decode.ts`). A first
 * request, its replay and a reused key each cost one call: the claim's ALL_OLD answers the
 * latter two; an event's inbox item tells a duplicate from an id conflict the same way.
 */
export function createMovementStore(options: StoreOptions): MovementPort {
  const { client, tableName } = options;
  const retry = retryPolicy(options);

  /** The claim and the movement in one transaction; a cancellation read claim first. */
  async function write<Rejection>(
    once: Once,
    context: OnceContext,
    plan: MoneyPlan,
    refusal: (cancellation: Cancellation) => Rejection | undefined,
  ): Promise<MovementWrite<Rejection>> {
    const parts = withOnce(tableName, once, context, composeMoney(tableName, plan));
    const outcome = await commitMoney(client, parts, retry, onceTransactOptions(once));
    if (outcome.kind === 'committed') return outcome;
    if (outcome.kind === 'contended') return { kind: 'sequence_moved' };
    const { cancellation } = outcome;
    const answer = onceFailure(once, cancellation.failed) ?? refusal(cancellation);
    if (answer === undefined) throw unexpectedFailure(cancellation.failed);
    return answer;
  }

  const entriesOf = (legs: readonly { readonly entry: LedgerEntry }[]) =>
    legs.map(({ entry }) => entry);

  return {
    post(once, { entry, guard }, intake) {
      const context = { entryId: entry.id, at: entry.createdAt };
      const plan = {
        movements: [{ legs: placedLegs(operationIndexOf(once), [{ entry, guard }]) }],
        intake,
      };
      return write(once, context, plan, (c) => postingRejection(c, entry.accountId));
    },

    transfer(once, transfer, intake) {
      const [out] = transfer.legs;
      const context = { entryId: out.id, at: out.createdAt };
      const legs = transferMovement(transfer);
      const after = [{ role: 'transfer', item: transferRecordItem(tableName, transfer.transfer) }];
      const plan = {
        movements: [{ legs: placedLegs(operationIndexOf(once), legs), after }],
        intake,
      };
      return write(once, context, plan, (c) => legsRejection(c, entriesOf(legs)));
    },

    ledgerTransaction(once, transaction, intake) {
      const { record, legs } = transaction;
      const context = { entryId: legs[0]?.entry.id ?? record.id, at: record.createdAt };
      const after = [{ role: 'record', item: recordItem(tableName, record) }];
      const plan = {
        movements: [{ legs: placedLegs(operationIndexOf(once), legs), after }],
        intake,
      };
      return write(once, context, plan, (c) => legsRejection(c, entriesOf(legs)));
    },

    reverse(once, reversal, intake) {
      const first = reversal.legs[0]?.entry;
      const context = { entryId: first?.id ?? '', at: first?.createdAt ?? '' };
      const head = reversalGuardParts(tableName, reversal);
      const legs = reversal.legs.map((l) => entryLeg(l.entry, l.guard));
      const plan = { head, movements: [{ legs }], intake };
      return write(once, context, plan, (c) => reversalRejection(c, entriesOf(reversal.legs)));
    },

    capture(once, settlement, entry) {
      const context = { entryId: entry.id, at: entry.createdAt };
      const plan = settlementPlan(tableName, settlement, entry);
      return write(once, context, plan, (c) => holdChanged(c, settlement));
    },
  };
}
