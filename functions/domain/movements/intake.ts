import type { AccountRecord, LedgerEntry } from '../accounts/model';
import { DEFAULT_INTAKE_SHARDS, isCreditDirection } from '../intake/model';
import type { RejectedLeg } from './legs';

/**
 * The accounts a movement's credits go to through intake (docs/contract.md §24): account id →
 * its intake shards. A credit-direction leg into one of them writes a pending credit behind the
 * account's gate; every other leg changes its account item.
 */
export type IntakeRoutes = ReadonlyMap<string, number>;

export const NO_INTAKE: IntakeRoutes = new Map();

/** Past this many known deferred accounts the directory starts again (it only saves a try). */
const MAX_KNOWN = 10_000;

/**
 * What this process has learnt of deferred accounts, from the refusals that taught it: a
 * credit is tried directly until an account update says the account is deferred, and through
 * the gate until a gate is missing or says `direct`. Stale knowledge costs one cancelled
 * transaction, never a wrong write: both paths are guarded in the write itself.
 */
export class IntakeDirectory {
  private readonly known = new Map<string, number>();

  /** The routes of these legs as far as known: only credit-direction legs are deferred. */
  routesFor(entries: readonly LedgerEntry[]): IntakeRoutes {
    const routes = new Map<string, number>();
    for (const entry of entries) {
      const shards = this.known.get(entry.accountId);
      if (shards !== undefined && isCreditDirection(entry)) routes.set(entry.accountId, shards);
    }
    return routes.size === 0 ? NO_INTAKE : routes;
  }

  /**
   * Learns from a cancelled write: a deferrable leg refused by a deferred account goes through
   * intake next time, a leg refused by a missing or `direct` gate goes to the account again.
   * True when anything changed, i.e. the write is worth trying again.
   */
  learn(entries: readonly LedgerEntry[], rejected: readonly RejectedLeg[]): boolean {
    let changed = false;
    for (const { index, account, viaGate } of rejected) {
      const entry = entries[index];
      if (!entry || !isCreditDirection(entry)) continue;
      if (viaGate && account?.creditIntake !== 'deferred') {
        changed = this.known.delete(entry.accountId) || changed;
      } else if (!viaGate && account?.creditIntake === 'deferred') {
        this.remember(account);
        changed = true;
      }
    }
    return changed;
  }

  private remember(account: AccountRecord): void {
    if (this.known.size >= MAX_KNOWN) this.known.clear();
    this.known.set(account.id, account.intakeShards ?? DEFAULT_INTAKE_SHARDS);
  }
}

const directories = new WeakMap<object, IntakeDirectory>();

/**
 * The one directory of everything a composition writes through `port` (docs/contract.md §33):
 * every command on it and the batches route with what any of them learnt, so a credit that
 * taught the single route an account is deferred spares a batch's chunk the refused try.
 */
export function intakeDirectoryOf(port: object): IntakeDirectory {
  const known = directories.get(port);
  if (known) return known;
  const directory = new IntakeDirectory();
  directories.set(port, directory);
  return directory;
}

/** How often one movement may be re-routed: direct → intake → direct is the longest story. */
export const MAX_ROUTE_ATTEMPTS = 3;
