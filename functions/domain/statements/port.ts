import type { AccountRecord, LedgerEntry } from '../accounts/model';
import type { SettledWrite } from '../idempotency/idempotent-command';
import type { IdempotencyClaim, ResponseRecorder } from '../idempotency/port';
import type { EffectiveHistory, EffectiveMovement, EffectiveRange } from './model';

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
  | { readonly kind: 'pending_credits' };

/** Storage of statements, effective balances and period closes (docs/contract.md §26). */
export interface StatementPort extends ResponseRecorder {
  getEffectiveAccount(accountId: string): Promise<EffectiveAccount | undefined>;
  /** Every entry of the account effective in `range`, as sums need them (all index pages). */
  effectiveMovements(accountId: string, range: EffectiveRange): Promise<EffectiveMovement[]>;
  /** One page of the entries effective in `range`, after `cursor`. */
  statementItems(
    accountId: string,
    range: EffectiveRange,
    limit: number,
    cursor: string | undefined,
  ): Promise<StatementPage>;
  /**
   * ONE transaction: the claim and `closedThrough = through` on the owner's account, while its
   * closedThrough is absent or not after `through`. Moves no money: no version, no journal.
   * A deferred account (`intakeShards` > 0): refused while a pending credit is effective at or
   * before `through`, its gates take the same `closedThrough`, each while it accepted nothing
   * since that was checked.
   */
  closePeriod(
    claim: IdempotencyClaim,
    account: Pick<AccountRecord, 'id' | 'ownerId' | 'intakeShards'>,
    through: string,
  ): Promise<PeriodCloseResult>;
}
