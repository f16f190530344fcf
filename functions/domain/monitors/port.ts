import type { SettledWrite } from '../idempotency/idempotent-command';
import type { IdempotencyClaim, ResponseRecorder } from '../idempotency/port';
import type { Monitor, MonitorEvent } from './model';

/** The account as a monitor's creation needs it: owner, current values, how far it counts. */
export interface MonitoredAccount {
  readonly accountId: string;
  readonly ownerId: string;
  readonly balance: number;
  readonly available: number;
  /** Changes committed so far (0 for an account without any, or older than the journal). */
  readonly version: number;
}

/** What creating a monitor reports besides committed / claimed. */
export type CreateMonitorResult =
  | SettledWrite
  | { readonly kind: 'limit_reached' }
  /** The account changed between the read and the write: its values are stale. */
  | { readonly kind: 'account_moved' };

/** The routes' storage (docs/contract.md §28). */
export interface MonitorPort extends ResponseRecorder {
  getAccount(accountId: string): Promise<MonitoredAccount | undefined>;
  /**
   * ONE transaction: the claim, the monitor, the account's monitor count raised below the limit,
   * and the account still at `read.version` (so no change is evaluated against stale values).
   */
  createMonitor(
    claim: IdempotencyClaim,
    monitor: Monitor,
    read: MonitoredAccount,
  ): Promise<CreateMonitorResult>;
  /** The account's monitors, strongly consistent, by creation. */
  listMonitors(accountId: string): Promise<Monitor[]>;
  getMonitor(accountId: string, monitorId: string): Promise<Monitor | undefined>;
  /** Removes it and lowers the count; nothing when it does not exist. */
  deleteMonitor(accountId: string, monitorId: string): Promise<void>;
}

/** What recording flips reports. */
export type FlipResult =
  | { readonly kind: 'recorded' }
  /** The monitor was not at the sequence read (or is gone): how it stands now. */
  | { readonly kind: 'moved'; readonly monitor: Monitor | undefined };

/** The projector's side (docs/contract.md §28): read the monitors, record and confirm flips. */
export interface MonitorEvaluationPort {
  listMonitors(accountId: string): Promise<Monitor[]>;
  /**
   * ONE conditional write: the monitor's new state, stateSince and sequence, and its flips'
   * events appended to `pending`, only while it still stands at `from.sequence`.
   */
  recordFlips(from: Monitor, to: Monitor, flips: readonly MonitorEvent[]): Promise<FlipResult>;
  /** Clears `pending` once published, only while the monitor still stands at `at.sequence`. */
  confirmPublished(at: Monitor): Promise<void>;
}
