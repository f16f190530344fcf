/**
 * `IDEMPOTENCY_HEDGED_READ` (CDK context `idempotencyHedgedRead`; docs/contract.md §4 "Hedged
 * claim read"): how the HTTP function reads a request's claim beside its write.
 * - `adaptive`: only while the instance meets replays (functions/domain/idempotency/replay-window.ts);
 * - `always`: beside every write request;
 * - `off`: never (a replay is answered by its cancelled transaction).
 */
export const HEDGED_READ_SETTINGS = ['adaptive', 'always', 'off'] as const;
export type HedgedReadSetting = (typeof HEDGED_READ_SETTINGS)[number];
export const DEFAULT_HEDGED_READ: HedgedReadSetting = 'adaptive';

export const isHedgedReadSetting = (value: unknown): value is HedgedReadSetting =>
  (HEDGED_READ_SETTINGS as readonly unknown[]).includes(value);
