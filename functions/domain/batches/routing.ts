import type { LedgerEntry } from '../accounts/model';
import { isCreditDirection } from '../accounts/model';
import { type IntakeDirectory, type IntakeRoutes, MAX_ROUTE_ATTEMPTS } from '../movements/intake';
import type { RejectedLeg } from '../movements/legs';
import type { PlannedMovement } from './model';
import type { BatchPort, MovementsWriteOptions, MovementsWriteResult } from './port';

/** A write of a batch's movements and the routes it was last made with. */
export interface RoutedWrite {
  readonly result: MovementsWriteResult;
  readonly intake: IntakeRoutes;
}

/**
 * The ONE routing decision of a batch's writes (docs/contract.md §24, §25), whatever the
 * mode: credits into a deferred account go through its intake gate, as the single routes route
 * them — the movements' IntakeDirectory holds what is known, a refused write teaches it (an
 * account that turned out deferred, a gate that is missing or says `direct`), and the write
 * is made again with what it taught, at most MAX_ROUTE_ATTEMPTS times.
 */
export class BatchRouting {
  constructor(
    private readonly port: BatchPort,
    private readonly directory: IntakeDirectory,
  ) {}

  /** The routes of these movements' legs as far as known. */
  routesFor(movements: readonly PlannedMovement[]): IntakeRoutes {
    return this.directory.routesFor(entriesOf(movements));
  }

  /**
   * Reads the accounts these movements credit whose intake is not known yet, and learns which
   * are deferred: what an atomic batch does before it is sized, when it does not fit as routed
   * so far (docs/contract.md §25). One read, no write.
   */
  async learnAccounts(movements: readonly PlannedMovement[]): Promise<void> {
    const entries = entriesOf(movements);
    const known = this.directory.routesFor(entries);
    const unknown = new Set(
      entries
        .filter((e) => isCreditDirection(e) && !known.has(e.accountId))
        .map((e) => e.accountId),
    );
    if (unknown.size === 0) return;
    const accounts = await this.port.readAccounts([...unknown]);
    const rejected: RejectedLeg[] = [];
    for (const account of accounts.values()) {
      const index = entries.findIndex((e) => e.accountId === account.id && isCreditDirection(e));
      rejected.push({ index, account, viaGate: false });
    }
    this.directory.learn(entries, rejected);
  }

  /** One write with the routes known, again while a refusal teaches a route. */
  async write(
    movements: readonly PlannedMovement[],
    options: Omit<MovementsWriteOptions, 'intake'>,
  ): Promise<RoutedWrite> {
    const entries = entriesOf(movements);
    for (let attempt = 1; ; attempt += 1) {
      const intake = this.directory.routesFor(entries);
      const result = await this.port.writeMovements(movements, { ...options, intake });
      if (result.kind === 'committed' || result.batch || attempt >= MAX_ROUTE_ATTEMPTS) {
        return { result, intake };
      }
      if (!this.directory.learn(entries, rejectedLegs(result, entries, intake))) {
        return { result, intake };
      }
    }
  }
}

const entriesOf = (movements: readonly PlannedMovement[]): LedgerEntry[] =>
  movements.flatMap((m) => m.legs.map((leg) => leg.entry));

/**
 * The refusals that may teach a route: an account item that refused a credit sent to it
 * (it may be deferred), a gate that refused a credit sent through it (it may be missing or
 * `direct`), each as its first such credit.
 */
function rejectedLegs(
  refused: Extract<MovementsWriteResult, { kind: 'refused' }>,
  entries: readonly LedgerEntry[],
  intake: IntakeRoutes,
): RejectedLeg[] {
  const legs: RejectedLeg[] = [];
  const sides = [
    [refused.accounts, false],
    [refused.gates, true],
  ] as const;
  for (const [items, viaGate] of sides) {
    for (const [accountId, account] of items) {
      const index = entries.findIndex(
        (e) =>
          e.accountId === accountId && isCreditDirection(e) && intake.has(accountId) === viaGate,
      );
      if (index >= 0) legs.push({ index, account, viaGate });
    }
  }
  return legs;
}
