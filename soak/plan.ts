import { drawer } from './draw';
import type { AccountSpec, MonitorSpec, Operation } from './operations';
import { seeded } from './random';

export type {
  AccountSpec,
  BatchItem,
  EventItem,
  Leg,
  MonitorSpec,
  Operation,
  OperationKind,
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
    { deferred: false, overdraft: 0, events: true, closable: false },
    { deferred: false, overdraft: 500, events: true, closable: false },
    { deferred: true, overdraft: 0, events: true, closable: false },
    { deferred: false, overdraft: 0, events: false, closable: false },
    { deferred: true, overdraft: 0, events: false, closable: false },
    { deferred: false, overdraft: 0, events: false, closable: true },
    { deferred: false, overdraft: 0, events: false, closable: true },
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
