import type { LedgerEntry } from '../accounts/model';
import { checkChain } from '../journal/chain';
import type { JournalRecord } from '../journal/model';

/**
 * Continuous reconciliation (docs/contract.md §19): the books checked against themselves, from
 * each account's last checked journal sequence on. Pure: what is wrong, never what to do.
 *
 * - `journal`   (a) the journal is contiguous `1 … version` and each record's arithmetic holds;
 * - `entries`   (b) each record's entry exists and moved exactly the record's `balanceDelta`;
 * - `balance`   (b) the account's `balance`/`available` are where its journal ends (or, for an
 *               account older than the journal, `balance` is the sum of all its entries);
 * - `holds`     (c) `balance − available` is what the account's active holds still reserve;
 * - `zero_sum`  (d) every transfer and ledger transaction sums to zero over its legs;
 * - `hash_chain` each record's hash is its content linked to the record before (§27);
 * - `set_aside_credit` a pending credit the folder can never post was set aside (§36): written
 *               by the folder in the set-aside's own transaction, once per credit set aside.
 */
export const RECONCILE_CHECKS = [
  'journal',
  'entries',
  'balance',
  'holds',
  'zero_sum',
  'journal_version_gap',
  'hash_chain',
  'set_aside_credit',
] as const;
export type ReconcileCheck = (typeof RECONCILE_CHECKS)[number];

/** A mismatch (§19). Keyed by (account, check, sequence): a rerun finds, never duplicates. */
export interface Finding {
  readonly accountId: string;
  readonly check: ReconcileCheck;
  readonly expected: number | string;
  readonly actual: number | string;
  /** The journal record the check ran at; absent for whole-account checks of old accounts. */
  readonly sequence?: number;
  /** The credit a `set_aside_credit` finding names (it has no journal record). */
  readonly entryId?: string;
  readonly detectedAt: string;
  /** One sentence for the operator: which entry, hold or group, and what differed. */
  readonly detail: string;
}

export type Mismatch = Omit<Finding, 'accountId' | 'detectedAt'>;

/** How far an account has been checked: its last checked record and the values it ended at. */
export interface Checkpoint {
  readonly accountId: string;
  readonly checkedSequence: number;
  readonly balanceAfter: number;
  readonly availableAfter: number;
  /** The checked record's hash (§27): what the next record links to; absent before the chain. */
  readonly hash?: string;
  /** An account older than the journal had its one full pass (§22). */
  readonly fullPassDone?: true;
  /** The journal's first missing record while it trails `version`, and since when (§30). */
  readonly trailing?: { readonly sequence: number; readonly since: string };
}

/** What an entry moved on its own account's balance: credits add, debits subtract. */
export function signedAmount(entry: LedgerEntry): number {
  switch (entry.type) {
    case 'credit':
    case 'transfer_in':
    case 'ledger_credit':
      return entry.amount;
    case 'reversal':
      return entry.direction === 'credit' ? entry.amount : -entry.amount;
    default:
      return -entry.amount;
  }
}

/**
 * (a) Records `from.checkedSequence + 1 …` in order: each must have the next sequence and
 * continue the values before it. Record 1 of an account older than the journal (`opening`)
 * starts from whatever the account held; any other record 1 starts from zeros.
 */
export function checkJournal(
  records: readonly JournalRecord[],
  from: Checkpoint | undefined,
): Mismatch[] {
  const found: Mismatch[] = [];
  let sequence = from?.checkedSequence ?? 0;
  let balance = from?.balanceAfter ?? 0;
  let available = from?.availableAfter ?? 0;
  for (const record of records) {
    if (record.sequence !== sequence + 1) {
      found.push({
        check: 'journal',
        sequence: sequence + 1,
        expected: sequence + 1,
        actual: record.sequence,
        detail: `journal record ${sequence + 1} is missing (the next one is ${record.sequence})`,
      });
    } else if (!(record.sequence === 1 && record.opening)) {
      const wantBalance = balance + record.balanceDelta;
      const wantAvailable = available + record.availableDelta;
      if (record.balanceAfter !== wantBalance || record.availableAfter !== wantAvailable) {
        found.push({
          check: 'journal',
          sequence: record.sequence,
          expected: `${wantBalance}/${wantAvailable}`,
          actual: `${record.balanceAfter}/${record.availableAfter}`,
          detail: `journal record ${record.sequence} does not continue the one before (balance/available)`,
        });
      }
    }
    sequence = record.sequence;
    balance = record.balanceAfter;
    available = record.availableAfter;
  }
  return found;
}

/** §27: every broken link of the hash chain in `records`, continuing from `from`. */
export function checkHashChain(
  records: readonly JournalRecord[],
  from: Checkpoint | undefined,
): Mismatch[] {
  const start = from && {
    sequence: from.checkedSequence,
    balanceAfter: from.balanceAfter,
    availableAfter: from.availableAfter,
    ...(from.hash === undefined ? {} : { hash: from.hash }),
  };
  return checkChain(records, start)
    .breaks.filter((b) => b.problem === 'hash')
    .map((b) => ({
      check: 'hash_chain' as const,
      sequence: b.sequence,
      expected: b.expected ?? 'a linked hash',
      actual: b.actual ?? 'none',
      detail: `journal record ${b.sequence}: ${b.detail}`,
    }));
}

/** (b) A record with an entry: the entry exists and moved exactly the record's delta. */
export function checkEntry(record: JournalRecord, entry: LedgerEntry | undefined): Mismatch[] {
  if (record.entryId === undefined) return [];
  const base = { check: 'entries' as const, sequence: record.sequence };
  if (entry === undefined) {
    return [
      {
        ...base,
        expected: record.balanceDelta,
        actual: 'missing',
        detail: `entry ${record.entryId} of journal record ${record.sequence} does not exist`,
      },
    ];
  }
  const moved = signedAmount(entry);
  if (moved === record.balanceDelta && entry.accountId === record.accountId) return [];
  return [
    {
      ...base,
      expected: record.balanceDelta,
      actual: moved,
      detail: `entry ${entry.id} (${entry.type}) moved ${moved}, its journal record ${record.balanceDelta}`,
    },
  ];
}

/** The live account, read twice around the checks that need it to stand still. */
export interface LiveAccount {
  readonly accountId: string;
  readonly version: number;
  readonly balance: number;
  readonly available: number;
  readonly journalFromCreation: boolean;
}

/** (b) The account stands where its journal ends (only called when both are at one version). */
export function checkBalance(end: Checkpoint, account: LiveAccount): Mismatch[] {
  if (end.balanceAfter === account.balance && end.availableAfter === account.available) return [];
  return [
    {
      check: 'balance',
      sequence: end.checkedSequence,
      expected: `${end.balanceAfter}/${end.availableAfter}`,
      actual: `${account.balance}/${account.available}`,
      detail: `the account holds balance/available ${account.balance}/${account.available}, its journal ends at ${end.balanceAfter}/${end.availableAfter}`,
    },
  ];
}

/** (b) Full pass of an account older than the journal: balance = Σ of all its entries. */
export function checkEntrySum(account: LiveAccount, sum: number): Mismatch[] {
  if (sum === account.balance) return [];
  return [
    {
      check: 'balance',
      expected: sum,
      actual: account.balance,
      detail: `the account's entries sum to ${sum}, its balance is ${account.balance}`,
    },
  ];
}

/** (c) What active holds reserve is the gap between balance and available. */
export function checkHolds(account: LiveAccount, reserved: number, sequence?: number): Mismatch[] {
  const gap = account.balance - account.available;
  if (gap === reserved) return [];
  return [
    {
      check: 'holds',
      ...(sequence === undefined ? {} : { sequence }),
      expected: reserved,
      actual: gap,
      detail: `active holds reserve ${reserved}, but balance − available is ${gap}`,
    },
  ];
}

/** A transfer or ledger transaction, with the legs found on the accounts it names. */
export interface MovementGroup {
  readonly kind: 'transfer' | 'ledger_transaction';
  readonly id: string;
  /** How many legs the group's own record names. */
  readonly expectedLegs: number;
  readonly legs: readonly LedgerEntry[];
}

/** (d) Every leg there, and the legs sum to zero in each currency (§35). */
export function checkZeroSum(group: MovementGroup, sequence: number): Mismatch[] {
  const sums = new Map<string, number>();
  for (const leg of group.legs) {
    sums.set(leg.currency, (sums.get(leg.currency) ?? 0) + signedAmount(leg));
  }
  const off = [...sums].filter(([, sum]) => sum !== 0);
  if (group.legs.length === group.expectedLegs && off.length === 0) return [];
  // One currency (every transfer, most ledger transactions) reads as it always has.
  const sum =
    sums.size <= 1
      ? String([...sums.values()][0] ?? 0)
      : [...sums].map(([currency, each]) => `${each} ${currency}`).join(', ');
  return [
    {
      check: 'zero_sum',
      sequence,
      expected: `${group.expectedLegs} legs, sum 0${sums.size > 1 ? ' per currency' : ''}`,
      actual: `${group.legs.length} legs, sum ${sum}`,
      detail: `${group.kind} ${group.id} has ${group.legs.length} of ${group.expectedLegs} legs, summing to ${sum}`,
    },
  ];
}
