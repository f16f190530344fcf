import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { HOLD_ITEM_KIND } from '../../contract/names';
import {
  HOLD_STATUSES,
  type HoldRecord,
  type HoldSettlement,
} from '../../domain/accounts/hold-record';
import { withMetadata } from '../../domain/accounts/metadata';
import type { LedgerEntry } from '../../domain/accounts/model';
import type { EntryGuard } from '../../domain/movements/guard';
import { metadataOf } from '../accounts/entries';
import type { Cancellation } from '../movements/decode';
import type { MoneyPlan, PlanLeg } from '../movements/plan';
import { putNew, toAttributes } from '../table/attributes';
import { dueIndexAttributes, LEAVE_DUE_INDEX } from '../table/due-index';
import { keys } from '../table/keys';
import type { TransactPart } from '../table/transact';

/**
 * A hold is stored twice: the item under `HOLD#<id>` that captures, voids, reads and the
 * sweeper use (and that sits in the due index while active), and a copy in its account's
 * partition for the listing. Both are written in the same transaction every time.
 *
 * The hold's expiry is stored as `holdExpiresAt`, never as the TTL attribute `expiresAt`
 * (docs/contract.md §11): DynamoDB would delete the hold.
 */
const HOLD_EXPIRY_ATTRIBUTE = 'holdExpiresAt';
const HOLD_REF_KIND = 'hold-ref';

function storedHold(hold: HoldRecord): Record<string, unknown> {
  const { expiresAt, ...rest } = hold;
  return { ...rest, [HOLD_EXPIRY_ATTRIBUTE]: expiresAt };
}

/** The copy the listing reads; overwritten whole whenever the hold changes. */
function holdRefItem(tableName: string, hold: HoldRecord): TransactWriteItem {
  return {
    Put: {
      TableName: tableName,
      Item: toAttributes({
        ...keysOf(hold).ref,
        kind: HOLD_REF_KIND,
        ...storedHold(hold),
      }),
    },
  };
}

/** A new active hold: its item (in the due index until settled) and its listing copy. */
export function newHoldItems(tableName: string, hold: HoldRecord): TransactWriteItem[] {
  return [
    putNew(tableName, {
      ...keysOf(hold).main,
      kind: HOLD_ITEM_KIND,
      ...storedHold(hold),
      ...dueIndexAttributes(hold.id, new Date(hold.expiresAt)),
    }),
    holdRefItem(tableName, hold),
  ];
}

/**
 * Moves an active hold to its settled state and out of the due index, only while it is still
 * active and on the required side of its expiry — and, for a capture or void, still owned by
 * the principal that read it (a re-own in between makes it someone else's: docs/operations.md).
 * ALL_OLD tells a loser what happened instead.
 */
function settleHoldItem(tableName: string, settlement: HoldSettlement): TransactWriteItem {
  const { hold } = settlement;
  const byOwner = settlement.requires === 'unexpired';
  const expiry = byOwner ? '#expiry > :at' : '#expiry <= :at';
  return {
    Update: {
      TableName: tableName,
      Key: marshall(keysOf(hold).main),
      UpdateExpression: `SET #status = :status, #captured = :captured, #updatedAt = :at ${LEAVE_DUE_INDEX.clause}`,
      ConditionExpression: `#status = :active AND ${expiry}${byOwner ? ' AND #ownerId = :owner' : ''}`,
      ExpressionAttributeNames: {
        '#status': 'status',
        '#captured': 'capturedAmount',
        '#updatedAt': 'updatedAt',
        '#expiry': HOLD_EXPIRY_ATTRIBUTE,
        ...(byOwner ? { '#ownerId': 'ownerId' } : {}),
        ...LEAVE_DUE_INDEX.names,
      },
      ExpressionAttributeValues: marshall({
        ':status': hold.status,
        ':captured': hold.capturedAmount,
        ':at': settlement.at,
        ':active': 'active',
        ...(byOwner ? { ':owner': hold.ownerId } : {}),
      }),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/**
 * The account side of a settlement, as a leg of the one composer's plan
 * (`dynamodb/movements/plan.ts`): captured money leaves the balance, the rest is available. A
 * capture is journaled as `capture` (with its entry, which it lists), a void or an expiry as
 * `hold_released`. A capture or void also requires the account to still belong to the hold's
 * owner: a re-own moves the account after its holds (docs/contract.md §30), and a hold the
 * catch-up pass has not reached yet must not settle on an account someone else owns now. The
 * sweeper's expiry acts for nobody and has no owner guard.
 */
export function settlementLeg(settlement: HoldSettlement, entry?: LedgerEntry): PlanLeg {
  const { hold } = settlement;
  return {
    accountId: hold.accountId,
    guard: settlement.requires === 'unexpired' ? { ownerId: hold.ownerId } : {},
    change: {
      kind: hold.status === 'captured' ? 'capture' : 'hold_released',
      balanceDelta: settlement.balanceDelta,
      availableDelta: settlement.availableDelta,
      at: settlement.at,
      // A capture counts in the books when it is written (docs/contract.md §26).
      ...(entry === undefined ? {} : { entryId: entry.id, effectiveAt: settlement.at }),
      holdId: hold.id,
    },
    ...(entry === undefined ? {} : { entry }),
  };
}

/** A new hold's reservation on its account: available only, covered, in the currency, open. */
export function placementLeg(hold: HoldRecord, guard: EntryGuard): PlanLeg {
  return {
    accountId: hold.accountId,
    guard,
    change: {
      kind: 'hold_placed',
      balanceDelta: 0,
      availableDelta: -hold.amount,
      at: hold.createdAt,
      holdId: hold.id,
    },
  };
}

/**
 * A settlement as the one composer plans it: the claim of a void, the hold (decisive: once it
 * is no longer active, contention elsewhere changes nothing) and its listing copy, then the
 * account's leg and, for a capture, its entry.
 */
export function settlementPlan(
  tableName: string,
  settlement: HoldSettlement,
  entry?: LedgerEntry,
  claim?: TransactPart<string>,
): MoneyPlan {
  const head: TransactPart<string>[] = [
    ...(claim === undefined ? [] : [claim]),
    { role: 'hold', item: settleHoldItem(tableName, settlement), decisive: true },
    { role: 'ref', item: holdRefItem(tableName, settlement.hold) },
  ];
  return { head, movements: [{ legs: [settlementLeg(settlement, entry)] }] };
}

/**
 * The hold as it stood when its settlement's guard failed (undefined: it did not hold). When
 * only the account's owner guard failed, the hold is reported as the account's new owner's:
 * re-owned between the read and the write, so the caller does not find it.
 */
export function holdChanged(
  cancellation: Cancellation,
  settlement?: HoldSettlement,
): { readonly kind: 'hold_changed'; readonly hold: HoldRecord | undefined } | undefined {
  if (!cancellation.failed.has('hold')) return ownerMoved(cancellation, settlement);
  const old = cancellation.failed.get('hold');
  return { kind: 'hold_changed', hold: old ? toHoldRecord(old) : undefined };
}

function ownerMoved(
  cancellation: Cancellation,
  settlement: HoldSettlement | undefined,
): { readonly kind: 'hold_changed'; readonly hold: HoldRecord } | undefined {
  if (settlement?.requires !== 'unexpired') return undefined;
  const account = cancellation.accounts.get(settlement.hold.accountId);
  if (account === undefined) return undefined;
  const owner = account.ownerId;
  if (owner === settlement.hold.ownerId) return undefined;
  return { kind: 'hold_changed', hold: { ...settlement.hold, ownerId: owner } };
}

/** A stored status this code does not know is corruption, never "active" (capturable). */
function holdStatusOf(value: unknown): HoldRecord['status'] {
  const status = HOLD_STATUSES.find((s) => s === value);
  if (status === undefined) throw new Error(`hold item has an unknown status: ${String(value)}`);
  return status;
}

export function toHoldRecord(item: Readonly<Record<string, unknown>>): HoldRecord {
  return {
    id: String(item.id),
    accountId: String(item.accountId),
    ownerId: String(item.ownerId),
    amount: Number(item.amount),
    currency: String(item.currency),
    status: holdStatusOf(item.status),
    capturedAmount: Number(item.capturedAmount ?? 0),
    expiresAt: String(item[HOLD_EXPIRY_ATTRIBUTE]),
    ...(typeof item.reference === 'string' ? { reference: item.reference } : {}),
    ...withMetadata(metadataOf(item.metadata)),
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
  };
}

function keysOf(hold: HoldRecord) {
  return { main: keys.hold(hold.id), ref: keys.holdRef(hold.accountId, hold.createdAt, hold.id) };
}
