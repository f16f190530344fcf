import type { AccountRecord, LedgerEntry } from '../accounts/model';
import type { SettledWrite } from '../idempotency/idempotent-command';
import type { IdempotencyClaim, ResponseRecorder } from '../idempotency/port';
import type { DaySums } from './days';
import type { EffectiveHistory, EffectiveRange, SplitSums } from './model';

/** An account with its effective-time history: one strongly consistent read. */
export interface EffectiveAccount {
  readonly account: AccountRecord;
  readonly history: EffectiveHistory;
}

export interface StatementPage {
  /** Ordered by effective time, then commit order. */
  readonly items: LedgerEntry[];
  readonly nextCursor: string | null;
}

/** A period close refused by the account as it stood (ALL_OLD; undefined: missing). */
export type PeriodCloseResult =
  | SettledWrite
  | { readonly kind: 'account_rejected'; readonly account: AccountRecord | undefined }
  /** A deferred pending credit is effective at or before `through` (docs/contract.md §24). */
  | { readonly kind: 'pending_credits' }
  /** The account's intake mode or shard count changed since it was read: read it again. */
  | { readonly kind: 'intake_moved' };

/** What a period close reads of the account and conditions its write on (§36). */
export type PeriodCloseAccount = Pick<
  AccountRecord,
  'id' | 'ownerId' | 'creditIntake' | 'intakeShards'
>;

/** Storage of statements, effective balances and period closes (docs/contract.md §26). */
export interface StatementPort extends ResponseRecorder {
  getEffectiveAccount(accountId: string): Promise<EffectiveAccount | undefined>;
  /**
   * The entries of the account effective in `range` summed, split at `split` (all index pages,
   * summed page by page: memory holds one page, never the month's entries).
   */
  effectiveSums(accountId: string, range: EffectiveRange, split: string): Promise<SplitSums>;
  /** The day sums of `month` (`YYYY-MM`), ascending, strongly consistent: one read. */
  effectiveDays(accountId: string, month: string): Promise<DaySums[]>;
  /** How many entries the index holds effective in `range` (Select COUNT: no items kept). */
  countEffective(accountId: string, range: EffectiveRange): Promise<number>;
  /** One page of the entries effective in `range`, after `cursor`. */
  statementItems(
    accountId: string,
    range: EffectiveRange,
    limit: number,
    cursor: string | undefined,
  ): Promise<StatementPage>;
  /**
   * A period close as docs/contract.md §26 orders it. An account with intake partitions first
   * raises `closedThrough` on each gate (its own monotonic update), then reads its pending
   * credits strongly consistently: any effective at or before `through` → `pending_credits`
   * (the gates stay fenced). Then ONE transaction: the claim and `closedThrough = through` on the
   * owner's account, while its closedThrough is absent or before `through` and its intake mode
   * and shard count are as read (else `intake_moved`). Moves no money: no version, no journal.
   */
  closePeriod(
    claim: IdempotencyClaim,
    account: PeriodCloseAccount,
    through: string,
  ): Promise<PeriodCloseResult>;
}

/**
 * Where the journal projector keeps day sums (docs/contract.md §31, §36): each day's item adds
 * an account update's sums once, while the last version it added is before `firstVersion`, and
 * then holds `version` and `at` as `addedAt` (a redelivered update adds nothing).
 */
export interface DaySumsPort {
  addDays(
    accountId: string,
    firstVersion: number,
    version: number,
    days: readonly DaySums[],
    at: string,
  ): Promise<void>;
}
