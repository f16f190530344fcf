/**
 * One definition per effective-time fact (docs/contract.md §26): the skew a caller's clock may
 * run ahead, the backdate limit (CDK context `backdateLimitDays`, env `BACKDATE_LIMIT_DAYS`),
 * the statement window and page, and the index and attributes that hold an account's
 * effective-time history. The domain, the stores, the CDK stacks, the local stack and the CLI
 * import these.
 */

/** An `effectiveAt` later than now by more than this is refused (clock skew allowance). */
export const EFFECTIVE_SKEW_MS = 5_000;

/** `BACKDATE_LIMIT_DAYS`: how far back `effectiveAt` may lie, by default and at most. */
export const DEFAULT_BACKDATE_LIMIT_DAYS = 90;
export const MIN_BACKDATE_LIMIT_DAYS = 1;
export const MAX_BACKDATE_LIMIT_DAYS = 3_660;

/**
 * `DAY_SUMS_SETTLE_SECONDS`: a day's sums (docs/contract.md §31, §36) count in a statement once
 * the projector last added to them this long ago; a day added to since is read entry by entry
 * from the index, which may still trail it, so a statement's items and totals agree. 0 trusts
 * them at once (a store whose index never trails, as the soak's DynamoDB Local).
 */
export const DEFAULT_DAY_SUMS_SETTLE_SECONDS = 300;
export const MAX_DAY_SUMS_SETTLE_SECONDS = 86_400;

/** A statement window is at most this long (`to − from`). */
export const MAX_STATEMENT_DAYS = 366;
/** Statement items per page by default and at most. */
export const DEFAULT_STATEMENT_PAGE = 100;
export const MAX_STATEMENT_PAGE = 1_000;

/**
 * The sparse index of entries by effective time: every entry written since effective dates
 * carries both attributes (the account id; `<effectiveAt>#<createdAt>#<entryId>`).
 */
export const EFFECTIVE_INDEX = {
  name: 'effective',
  accountAttribute: 'effectiveAccount',
  keyAttribute: 'effectiveKey',
} as const;

/** The instant an account created with effective dates has its history from. */
export const EFFECTIVE_HISTORY_FROM_CREATION = '1970-01-01T00:00:00.000Z';
