import type { Hold, HoldChanged, HoldRecord, HoldSettlement } from '../accounts/hold-record';
import type { AccountRecord } from '../accounts/model';
import type { SettledWrite } from '../idempotency/idempotent-command';
import type { IdempotencyClaim, ResponseRecorder } from '../idempotency/port';
import type { EntryGuard } from '../movements/guard';

export type PlaceHoldResult =
  | SettledWrite
  | { readonly kind: 'account_rejected'; readonly account: AccountRecord | undefined };

export type SettleHoldResult = SettledWrite | HoldChanged;

export interface HoldPage {
  readonly items: Hold[];
  readonly nextCursor: string | null;
}

export interface HoldPort extends ResponseRecorder {
  /** ONE transaction: the claim, `available` lowered under guard, the hold and its copy. */
  placeHold(claim: IdempotencyClaim, hold: HoldRecord, guard: EntryGuard): Promise<PlaceHoldResult>;
  /**
   * ONE transaction: the claim, the hold's conditional void and the account. A capture moves
   * money: it is the movement store's (docs/contract.md §23).
   */
  voidHold(claim: IdempotencyClaim, settlement: HoldSettlement): Promise<SettleHoldResult>;
  getHold(holdId: string): Promise<HoldRecord | undefined>;
  getAccount(accountId: string): Promise<AccountRecord | undefined>;
  /** Newest first; only holds `keep` accepts count towards `limit`. */
  listHolds(
    accountId: string,
    limit: number,
    cursor: string | undefined,
    keep: (hold: HoldRecord) => boolean,
  ): Promise<{ items: HoldRecord[]; nextCursor: string | null }>;
}

/** What the storage reports after trying to settle a hold without an idempotency claim. */
export type HoldReleaseResult =
  | { readonly kind: 'committed' }
  | { readonly kind: 'hold_changed'; readonly hold: HoldRecord | undefined };

export interface HoldReleasePort {
  /** One transaction: the hold's conditional status change and the account's change. */
  releaseHold(settlement: HoldSettlement): Promise<HoldReleaseResult>;
}
