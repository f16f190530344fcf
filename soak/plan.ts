import { drawer } from './draw';
import type { AccountSpec, MonitorSpec, Operation } from './operations';
import { seeded } from './random';

export type {
  AccountSpec,
  BatchItem,
  Currency,
  EventItem,
  Leg,
  MonitorSpec,
  Operation,
  OperationKind,
  Rate,
} from './operations';

/**
 * What a soak run does, drawn from its seed before anything is sent: the accounts, their
 * monitors, and the operations in the order they are started. Accounts are named by index and
 * earlier operations by their position, so a subset of the operations (shrinking) still means
 * the same thing; an operation whose target did not come about (a capture of a refused hold)
 * is skipped.
 */
export interface Plan {
  readonly seed: number;
  readonly accounts: readonly AccountSpec[];
  readonly monitors: readonly MonitorSpec[];
  readonly operations: readonly Operation[];
}

export { EVENT_AMOUNT_BASE } from './draw';

export interface PlanOptions {
  readonly seed: number;
  readonly operations: number;
}

export function drawPlan(options: PlanOptions): Plan {
  const random = seeded(options.seed);
  const accounts: AccountSpec[] = [
    { currency: 'EUR', deferred: false, overdraft: 0, events: true, closable: false },
    { currency: 'EUR', deferred: false, overdraft: 500, events: true, closable: false },
    { currency: 'EUR', deferred: true, overdraft: 0, events: true, closable: false },
    { currency: 'EUR', deferred: false, overdraft: 0, events: false, closable: false },
    { currency: 'EUR', deferred: true, overdraft: 0, events: false, closable: false },
    { currency: 'EUR', deferred: false, overdraft: 0, events: false, closable: true },
    { currency: 'EUR', deferred: false, overdraft: 0, events: false, closable: true },
    // A second currency. Exchanges (`ledger` with `rates`, README's "Currency exchange") go
    // through the desk's liquidity accounts, each currency's account with an overdraft (1, 7),
    // from and to a customer's (another EUR account; 8).
    { currency: 'USD', deferred: false, overdraft: 1_000, events: false, closable: false },
    { currency: 'USD', deferred: true, overdraft: 0, events: false, closable: false },
  ];
  const monitors: MonitorSpec[] = [
    { account: 0, field: 'balance', operator: 'gte', value: 2_000 },
    { account: 1, field: 'available', operator: 'lt', value: 0 },
    { account: 3, field: 'available', operator: 'gte', value: 500 },
  ];
  const draw = drawer(random, accounts);
  const operations: Operation[] = [];
  for (let i = 0; i < options.operations; i++) operations.push(draw(operations));
  return {
    seed: options.seed,
    accounts,
    monitors,
    operations,
  };
}
