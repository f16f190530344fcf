import type { Metadata } from './metadata';

/**
 * Holds (docs/contract.md §11): money reserved on an account, later captured, voided or
 * expired. A hold lowers the account's `available`, never its `balance`; settling it moves
 * the reserved amount back to `available`, less whatever is captured (which leaves `balance`).
 */

export const HOLD_STATUSES = ['active', 'captured', 'voided', 'expired'] as const;
export type HoldStatus = (typeof HOLD_STATUSES)[number];

/** Longest hold, in seconds (one week). */
export const MAX_HOLD_SECONDS = 604_800;

export interface Hold {
  readonly id: string;
  readonly accountId: string;
  readonly amount: number;
  readonly currency: string;
  readonly status: HoldStatus;
  readonly capturedAmount: number;
  /** ISO-8601; the hold can no longer be captured or voided from this instant on. */
  readonly expiresAt: string;
  readonly reference?: string;
  readonly metadata?: Metadata;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A hold as stored: its owner besides the public view. A stored `active` may be past expiry. */
export interface HoldRecord extends Hold {
  readonly ownerId: string;
}

/** `expired` from `expiresAt` on, whether or not a sweep has released the hold yet. */
export function holdStatusAt(hold: Hold, now: Date): HoldStatus {
  if (hold.status === 'active' && now.getTime() >= Date.parse(hold.expiresAt)) return 'expired';
  return hold.status;
}

/** Public view of a hold at `now`: no owner, status as of `now`. */
export function holdView(record: HoldRecord, now: Date): Hold {
  const { ownerId: _owner, ...hold } = record;
  return { ...hold, status: holdStatusAt(record, now) };
}

/**
 * What settling an active hold writes, in one transaction: the hold's new state (only if it is
 * still active, and on the right side of its expiry) and the account's change.
 */
export interface HoldSettlement {
  /** The hold as it will be stored. */
  readonly hold: HoldRecord;
  /** Capture and void must happen before expiry; the sweeper releases only after it. */
  readonly requires: 'unexpired' | 'expired';
  /** ISO-8601; the instant the expiry condition is judged at, and `updatedAt`. */
  readonly at: string;
  /** Captured money leaves the balance. */
  readonly balanceDelta: number;
  /** The reserved amount, less what is captured, returns to `available`. */
  readonly availableDelta: number;
}

function settle(
  hold: HoldRecord,
  status: Exclude<HoldStatus, 'active'>,
  capturedAmount: number,
  now: Date,
): HoldSettlement {
  const at = now.toISOString();
  return {
    hold: { ...hold, status, capturedAmount, updatedAt: at },
    requires: status === 'expired' ? 'expired' : 'unexpired',
    at,
    balanceDelta: capturedAmount > 0 ? -capturedAmount : 0,
    availableDelta: hold.amount - capturedAmount,
  };
}

/** The sweeper's release of an expired hold: its whole amount returns to `available`. */
export const expirySettlement = (hold: HoldRecord, now: Date) => settle(hold, 'expired', 0, now);

/** A void: the whole amount returns to `available`. */
export const voidSettlement = (hold: HoldRecord, now: Date) => settle(hold, 'voided', 0, now);

/** A capture of `amount` (1 … hold amount): it leaves `balance`, the rest returns. */
export const captureSettlement = (hold: HoldRecord, amount: number, now: Date) =>
  settle(hold, 'captured', amount, now);

/** Settled, expired or re-owned between the read and the write, as the hold stood then. */
export interface HoldChanged {
  readonly kind: 'hold_changed';
  readonly hold: HoldRecord | undefined;
}
