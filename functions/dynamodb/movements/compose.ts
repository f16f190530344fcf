import { intakeShardOf } from '../../domain/accounts/pending-credits';
import { requestPosition } from '../accounts/effective-history';
import { newEntryItems, paymentItem } from '../accounts/entries';
import type { TransactPart } from '../table/transact';
import { accountChangeItem } from './account-change';
import { gateIntakeItem, pendingCreditItem } from './intake-items';
import { type MoneyPlan, type PlanLeg, routeOf } from './plan';

/**
 * THE composer of every money transaction (docs/architecture.md "One write path"), the only
 * user of the account-change builder: a plan's legs, routed once, become
 *
 * - ONE update per account carrying all of its legs in order (`account:<accountId>`; two
 *   actions on one item are a ValidationException), guarded as its legs ask, covering the
 *   largest running draw-down, so each draw is covered at its turn;
 * - ONE update per intake gate counting all of its credits in (`gate:<accountId>:<shard>`),
 *   guarded as the first of them asks, no earlier than the earliest of them (§24);
 * - per movement (by position `m`): its own items before, each leg's entry and pointer
 *   (`entry:<m>`, `pointer:<m>`) or pending credit (`pending:<m>`), then the paymentId item
 *   of the leg that carries one (`payment:<m>`), its own items after;
 *
 * between the plan's head (a batch's claim) and tail (sequence items, posted counts).
 */
export type MoneyRole =
  | `account:${string}`
  | `gate:${string}`
  | `entry:${number}`
  | `pointer:${number}`
  | `pending:${number}`
  | `payment:${number}`;

export function composeMoney(tableName: string, plan: MoneyPlan): TransactPart<string>[] {
  const direct = new Map<string, PlanLeg[]>();
  const gates = new Map<string, { accountId: string; shard: number; legs: PlanLeg[] }>();
  for (const { legs } of plan.movements) {
    for (const leg of legs) {
      const shards = routeOf(leg, plan);
      if (shards === undefined) {
        direct.set(leg.accountId, [...(direct.get(leg.accountId) ?? []), leg]);
        continue;
      }
      const shard = intakeShardOf(leg.entry?.id ?? '', shards);
      const id = `${leg.accountId}:${shard}`;
      const gate = gates.get(id) ?? { accountId: leg.accountId, shard, legs: [] };
      gate.legs.push(leg);
      gates.set(id, gate);
    }
  }
  const parts: TransactPart<string>[] = [...(plan.head ?? [])];
  for (const [accountId, legs] of direct) {
    parts.push({
      role: `account:${accountId}`,
      item: accountItem(tableName, plan, accountId, legs),
    });
  }
  for (const [id, { accountId, shard, legs }] of gates) {
    const [first] = legs;
    const earliest = legs.map(({ entry }) => entry?.effectiveAt ?? '').sort()[0];
    const guard = { ...first?.guard, currency: first?.guard.currency ?? '', effectiveAt: earliest };
    const item = gateIntakeItem(tableName, accountId, shard, guard, legs.length);
    parts.push({ role: `gate:${id}`, item });
  }
  plan.movements.forEach((movement, m) => {
    parts.push(...(movement.before ?? []));
    for (const [l, leg] of movement.legs.entries()) {
      parts.push(...legItems(tableName, plan, leg, m, leg.position ?? requestPosition(0, l)));
    }
    for (const { entry } of movement.legs) {
      // A posted pending credit's paymentId was claimed at intake, with the credit.
      const payment = entry && !plan.postsPendingCredits && paymentItem(tableName, entry);
      if (payment) parts.push({ role: `payment:${m}`, item: payment });
    }
    parts.push(...(movement.after ?? []));
  });
  parts.push(...(plan.tail ?? []));
  return parts;
}

/**
 * What the account may draw on before the update must cover every leg's draw at its turn:
 * the largest `required − (what the legs before it moved)`; none when no leg draws.
 */
function coverOf(legs: readonly PlanLeg[]): number | undefined {
  let before = 0;
  let cover: number | undefined;
  for (const { guard, change } of legs) {
    const required = guard.requireAvailableAtLeast;
    if (required !== undefined) {
      cover = cover === undefined ? required - before : Math.max(cover, required - before);
    }
    before += change.availableDelta;
  }
  return cover;
}

function accountItem(tableName: string, plan: MoneyPlan, accountId: string, legs: PlanLeg[]) {
  const guard = legs[0]?.guard ?? {};
  return accountChangeItem(tableName, {
    accountId,
    changes: legs.map(({ change }) => change),
    ownerId: guard.ownerId,
    currency: guard.currency,
    requireOpen: legs.some((leg) => leg.guard.requireOpen),
    requireAvailableAtLeast: coverOf(legs),
    postsPendingCredits: plan.postsPendingCredits,
  });
}

/** A leg's own items: its entry and pointer, or its pending credit. */
function legItems(
  tableName: string,
  plan: MoneyPlan,
  leg: PlanLeg,
  m: number,
  position: number,
): TransactPart<MoneyRole>[] {
  const { entry } = leg;
  if (!entry) return [];
  const parts: TransactPart<MoneyRole>[] = [];
  const shards = routeOf(leg, plan);
  if (shards === undefined) {
    const [listed, pointer] = newEntryItems(tableName, entry, position);
    parts.push({ role: `entry:${m}`, item: listed }, { role: `pointer:${m}`, item: pointer });
  } else {
    const shard = intakeShardOf(entry.id, shards);
    const pending = pendingCreditItem(tableName, { entry, acceptedAt: entry.createdAt, shard });
    parts.push({ role: `pending:${m}`, item: pending });
  }
  return parts;
}
