import { EFFECTIVE_HISTORY_FROM_CREATION, EFFECTIVE_INDEX } from '../../contract/effective-time';
import { type LedgerEntry, signedAmount } from '../../domain/accounts/model';
import type { AccountChange } from '../../domain/journal/model';
import { type PeriodSums, sumsBy } from '../../domain/statements/days';
import {
  type EffectiveHistory,
  type EffectiveMovement,
  monthOf,
} from '../../domain/statements/model';

/**
 * An account's effective-time history (docs/contract.md §26; docs/architecture.md "Effective
 * time"), written in the movement's own transaction, never by a read before the write:
 * - on the account item, per calendar month (UTC) of effective time, `ec#<YYYY-MM>` and
 *   `ed#<YYYY-MM>`: the sums of credits and debits effective in it (ADD, in the account update
 *   the movement makes anyway), and `effectiveOpening` / `effectiveSince`: what the account held
 *   before its first dated change and from when its history is complete (an account created
 *   with effective dates: 0 and 1970; an older one: its balance and the time of that change);
 * - on every entry, the attributes of the sparse `effective` index: the account and
 *   `<effectiveAt>#<createdAt>#<position>#<entryId>` (docs/contract.md §36: the entry's place in
 *   its request, 6 digits, breaks ties of commit time before the id; entries written before it
 *   keep `<effectiveAt>#<createdAt>#<entryId>`), so a window's entries are one index Query.
 */

export const EFFECTIVE_OPENING = 'effectiveOpening';
export const EFFECTIVE_SINCE = 'effectiveSince';
export const CLOSED_THROUGH = 'closedThrough';
const CREDITS_PREFIX = 'ec#';
const DEBITS_PREFIX = 'ed#';
const ENTRIES_PREFIX = 'en#';

export const monthCreditsAttribute = (month: string): string => `${CREDITS_PREFIX}${month}`;
export const monthDebitsAttribute = (month: string): string => `${DEBITS_PREFIX}${month}`;
/** How many entries are effective in the month (docs/contract.md §31): the index is held to it. */
export const monthEntriesAttribute = (month: string): string => `${ENTRIES_PREFIX}${month}`;

/** Per effective month, what changes of the balance add to its sums (`ADD` operands). */
export const monthSums = (changes: readonly AccountChange[]): Map<string, PeriodSums> =>
  sumsBy(changes, monthOf);

/** The attributes and amounts one month's changes `ADD` to the account item. */
export const monthAdds = (month: string, sums: PeriodSums): (readonly [string, number])[] => [
  [monthCreditsAttribute(month), sums.credits],
  [monthDebitsAttribute(month), sums.debits],
  [monthEntriesAttribute(month), sums.entries],
];

/** The attributes of a new account: its effective history is complete from creation. */
export const newAccountHistory = (): Record<string, unknown> => ({
  [EFFECTIVE_OPENING]: 0,
  [EFFECTIVE_SINCE]: EFFECTIVE_HISTORY_FROM_CREATION,
});

/** Legs an operation may have: a position is `operation × LEGS_PER_OPERATION + leg`. */
const LEGS_PER_OPERATION = 1000;
const POSITION_DIGITS = 6;

/**
 * An entry's place in its request (docs/contract.md §36): its operation's index in a batch (0
 * for a single request) and its leg's index in the movement.
 */
export const requestPosition = (operation: number, leg = 0): number =>
  operation * LEGS_PER_OPERATION + leg;

/** The two attributes that put an entry into the effective index. */
export function effectiveIndexAttributes(entry: LedgerEntry, position = 0): Record<string, string> {
  const place = String(position).padStart(POSITION_DIGITS, '0');
  return {
    [EFFECTIVE_INDEX.accountAttribute]: entry.accountId,
    [EFFECTIVE_INDEX.keyAttribute]: `${entry.effectiveAt}#${entry.createdAt}#${place}#${entry.id}`,
  };
}

/** The account item's effective history as the domain reads it. */
export function toEffectiveHistory(item: Record<string, unknown>): EffectiveHistory {
  const months = new Map<string, { credits: number; debits: number; entries?: number }>();
  for (const [name, value] of Object.entries(item)) {
    const prefix = [CREDITS_PREFIX, DEBITS_PREFIX, ENTRIES_PREFIX].find((p) => name.startsWith(p));
    if (prefix === undefined) continue;
    const month = name.slice(prefix.length);
    const sums = months.get(month) ?? { credits: 0, debits: 0 };
    if (prefix === CREDITS_PREFIX) sums.credits = Number(value);
    else if (prefix === DEBITS_PREFIX) sums.debits = Number(value);
    // Months summed before the counts were written have none: nothing to hold the index to.
    else sums.entries = Number(value);
    months.set(month, sums);
  }
  const since = item[EFFECTIVE_SINCE];
  return {
    // An account untouched since effective dates: all it holds is from before, nothing after.
    opening: Number(item[EFFECTIVE_OPENING] ?? item.balance ?? 0),
    since: typeof since === 'string' ? since : String(item.updatedAt),
    months: [...months].map(([month, sums]) => ({ month, ...sums })).sort(byMonth),
  };
}

const byMonth = (a: { month: string }, b: { month: string }) => a.month.localeCompare(b.month);

/** An index item as the statement sums it. */
export function toEffectiveMovement(item: Record<string, unknown>): EffectiveMovement {
  const delta = signedAmount({
    type: item.type as LedgerEntry['type'],
    direction:
      item.direction === 'debit' || item.direction === 'credit' ? item.direction : undefined,
    amount: Number(item.amount),
  });
  return {
    effectiveAt: String(item.effectiveAt),
    credit: Math.max(delta, 0),
    debit: Math.max(-delta, 0),
  };
}
