import { type LedgerEntry, signedAmount } from '../../domain/accounts/model';
import { isCreditDirection } from '../../domain/intake/model';
import type { AccountChange } from '../../domain/journal/model';
import { type IntakeRoutes, NO_INTAKE } from '../../domain/movements/intake';
import type { LegsRejection, MovementLeg, RejectedLeg } from '../../domain/movements/legs';
import { newEntryItems, paymentItem } from '../accounts/entries';
import { toAccountRecord } from '../accounts/items';
import { gateAsAccount, intakeItems } from '../intake/items';
import { requestPosition } from '../statements/items';
import type { TransactPart } from '../table/transact';
import { accountChangeItem } from './account-change';

/**
 * The journal's descriptor of a leg (docs/contract.md §15): kind = the entry's type
 * (`transfer_out`/`transfer_in`, `ledger_debit`/`ledger_credit`, `reversal`), the entry's id and
 * the ids of what it belongs to; a reversal's `reversalOf` is the reversed original's id.
 */
export function legChange(entry: LedgerEntry, delta: number): AccountChange {
  return {
    kind: entry.type,
    balanceDelta: delta,
    availableDelta: delta,
    at: entry.createdAt,
    entryId: entry.id,
    effectiveAt: entry.effectiveAt,
    ...(entry.transferId === undefined ? {} : { transferId: entry.transferId }),
    ...(entry.ledgerTransactionId === undefined
      ? {}
      : { ledgerTransactionId: entry.ledgerTransactionId }),
    ...(entry.reversalOf === undefined ? {} : { reversalOf: entry.reversalOf.id }),
  };
}

/** The items of a movement's legs, by what each guards: `account:<i>`, `entry:<i>`, … */
export type LegRole =
  | `account:${number}`
  | `entry:${number}`
  | `pointer:${number}`
  | `gate:${number}`
  | `pending:${number}`
  | 'payment';

/**
 * Every leg of a movement — a transfer (docs/contract.md §10), a ledger transaction or a
 * reversal (§16): its account's guarded change (balance and available alike), its entry and the
 * entry's pointer; then the `paymentId` item of the leg that carries one (at most one does).
 * Each account appears once, so no key is written twice in the transaction. A credit-direction
 * leg into a deferred account named in `intake` writes its gate and pending credit instead of
 * the change, entry and pointer (docs/contract.md §24).
 */
export function legParts(
  tableName: string,
  legs: readonly MovementLeg[],
  intake: IntakeRoutes = NO_INTAKE,
): TransactPart<LegRole>[] {
  const parts: TransactPart<LegRole>[] = [];
  const deferred = (entry: LedgerEntry) =>
    isCreditDirection(entry) ? intake.get(entry.accountId) : undefined;
  legs.forEach(({ entry, guard }, index) => {
    const shards = deferred(entry);
    if (shards !== undefined) {
      const { gate, pending } = intakeItems(tableName, entry, guard, shards);
      parts.push(
        { role: `gate:${index}`, item: gate },
        { role: `pending:${index}`, item: pending },
      );
      return;
    }
    const delta = signedAmount(entry);
    parts.push({
      role: `account:${index}`,
      item: accountChangeItem(tableName, {
        accountId: entry.accountId,
        changes: [legChange(entry, delta)],
        ownerId: guard.ownerId,
        currency: guard.currency,
        requireAvailableAtLeast: guard.requireAvailableAtLeast,
        requireOpen: guard.requireOpen,
      }),
    });
  });
  legs.forEach(({ entry }, index) => {
    if (deferred(entry) !== undefined) return;
    const [listed, pointer] = newEntryItems(tableName, entry, requestPosition(0, index));
    parts.push(
      { role: `entry:${index}`, item: listed },
      { role: `pointer:${index}`, item: pointer },
    );
  });
  for (const { entry } of legs) {
    const payment = paymentItem(tableName, entry);
    if (payment) parts.push({ role: 'payment', item: payment });
  }
  return parts;
}

/** The legs whose account guard failed, by index, each account as it stood (ALL_OLD). */
export function rejectedLegs(
  failed: ReadonlyMap<string, Record<string, unknown> | undefined>,
): RejectedLeg[] {
  const legs: RejectedLeg[] = [];
  for (const [role, old] of failed) {
    const match = /^(account|gate):(\d+)$/.exec(role);
    if (!match) continue;
    const index = Number(match[2]);
    if (match[1] === 'gate') {
      legs.push({ index, account: old ? gateAsAccount(old) : undefined, viaGate: true });
    } else {
      legs.push({ index, account: old ? toAccountRecord(old) : undefined });
    }
  }
  return legs.sort((a, b) => a.index - b.index);
}

/** The refusals of a cancelled movement after its dedup record: accounts first, then paymentId. */
export function legsRejection(
  failed: ReadonlyMap<string, Record<string, unknown> | undefined>,
): LegsRejection | undefined {
  const legs = rejectedLegs(failed);
  if (legs.length > 0) return { kind: 'legs_rejected', legs };
  if (failed.has('payment')) return { kind: 'payment_id_taken' };
  return undefined;
}
