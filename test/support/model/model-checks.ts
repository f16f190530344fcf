import { expect } from 'vitest';
import type { ModelState } from './ledger-model';
import type { ModelEnvironment } from './model-driver';

/** The end-of-run checks of the model-based tests (test/support/model/model-driver.ts). */

/** What an earlier round made, by its key: its server id, and where it lives. */
export interface Made {
  readonly kind: 'entry' | 'transfer' | 'ledger' | 'hold';
  readonly id: string;
  /** The account of an entry or a hold. */
  readonly account?: number;
}

/**
 * Balance, available and version of every account as the model has them. Every change counts
 * once in `version` (§15): each entry (posted, §24), each hold placed or voided; closing counts
 * nothing (§17).
 */
export async function expectMoney(
  env: ModelEnvironment,
  ids: readonly string[],
  model: ModelState,
) {
  const money = await Promise.all(ids.map((id) => env.verify.money(id)));
  expect(money.map((m) => m.balance)).toEqual(model.balances);
  expect(money.map((m) => m.available)).toEqual(model.available);
  expect(money.map((m) => m.version)).toEqual(ids.map((_, i) => modelVersion(model, i)));
}

/** The account's `version` the model expects: one per entry (captures too), hold placed, void. */
function modelVersion(model: ModelState, account: number): number {
  let holdChanges = 0;
  for (const hold of model.holds.values()) {
    if (hold.account !== account) continue;
    holdChanges += hold.status === 'voided' ? 2 : 1;
  }
  return (model.entries[account] ?? []).length + holdChanges;
}

/** What an entry did to its account's balance. */
export function signedAmount(entry: Record<string, unknown>): number {
  const credit =
    entry.type === 'reversal'
      ? entry.direction === 'credit'
      : ['credit', 'transfer_in', 'ledger_credit'].includes(String(entry.type));
  return credit ? Number(entry.amount) : -Number(entry.amount);
}

/** Entries, reversedAmount, status and money conservation, once the plan has run. */
export async function verifyEnd(
  env: ModelEnvironment,
  ids: readonly string[],
  made: ReadonlyMap<string, Made>,
  model: ModelState,
  expectedIds: readonly (readonly string[])[],
) {
  const all: Record<string, unknown>[] = [];
  for (const [index, accountId] of ids.entries()) {
    const entries = await env.verify.entries(accountId);
    all.push(...entries);
    const summarize = (list: readonly Record<string, unknown>[]) =>
      list.map((e) => `${e.type}:${e.amount}`).sort();
    const expected = (model.entries[index] ?? []).map((p) => ({
      type: p.type,
      amount: Math.abs(p.delta),
    }));
    expect(summarize(entries)).toEqual(summarize(expected));
    // An entry is known by its reversal, ledger transaction, transfer or hold when it has one.
    const identity = (e: Record<string, unknown>) =>
      String(e.reversalId ?? e.ledgerTransactionId ?? e.transferId ?? e.holdId ?? e.id);
    expect(entries.map(identity).sort()).toEqual([...(expectedIds[index] ?? [])].sort());
    const { balance, status } = await env.verify.money(accountId);
    expect(entries.reduce((sum, e) => sum + signedAmount(e), 0)).toBe(balance);
    expect(status).toBe(model.closed[index] ? 'closed' : 'open');
  }
  // A reversal of a transfer or ledger transaction belongs to it (§16)…
  for (const entry of all.filter((e) => e.type === 'reversal')) {
    const of = entry.reversalOf as { kind: string; id: string };
    if (of.kind === 'transfer') expect(entry.transferId).toBe(of.id);
    else if (of.kind === 'ledger_transaction') expect(entry.ledgerTransactionId).toBe(of.id);
    else expect([entry.transferId, entry.ledgerTransactionId]).toEqual([undefined, undefined]);
  }
  // …so money is conserved per transfer and ledger transaction, reversals included (§10, §16)…
  const sums = new Map<string, number>();
  for (const entry of all) {
    const movement = entry.ledgerTransactionId ?? entry.transferId;
    if (movement !== undefined)
      sums.set(String(movement), (sums.get(String(movement)) ?? 0) + signedAmount(entry));
  }
  expect([...sums.values()].filter((sum) => sum !== 0)).toEqual([]);
  // …and across the ledger: the balances are what credits, debits and captures brought.
  const outside = all.filter(
    (e) => e.ledgerTransactionId === undefined && e.transferId === undefined,
  );
  expect(model.balances.reduce((x, y) => x + y, 0)).toBe(
    outside.reduce((s, e) => s + signedAmount(e), 0),
  );
  for (const [key, movement] of model.movements) {
    const original = made.get(key);
    if (!original) continue;
    const read =
      original.kind === 'entry'
        ? (await env.verify.entries(ids[original.account ?? 0] ?? '')).find(
            (e) => e.id === original.id,
          )
        : await env.verify.read(
            `/v1/${original.kind === 'ledger' ? 'ledger-transactions' : 'transfers'}/${original.id}`,
          );
    expect(read?.reversedAmount, `${original.kind} ${original.id}`).toBe(movement.reversed);
  }
}
