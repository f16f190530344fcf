import { drawer } from './draw';
import { seeded } from './random';

/**
 * What a soak run does, drawn from its seed before anything is sent: the accounts, their
 * monitors, and the operations in the order they are started. Accounts are named by index and
 * earlier operations by their position, so a subset of the operations (shrinking) still means
 * the same thing; an operation whose target did not come about (a capture of a refused hold)
 * is skipped.
 */
export interface AccountSpec {
  readonly deferred: boolean;
  readonly overdraft: number;
  /** Receives ledger events (never closed: a poison event would depend on timing). */
  readonly events: boolean;
  /** Only these are ever closed; they receive nothing but HTTP operations. */
  readonly closable: boolean;
}

export interface MonitorSpec {
  readonly account: number;
  readonly field: 'balance' | 'available';
  readonly operator: 'gte' | 'lt';
  readonly value: number;
}

export type Leg = {
  readonly account: number;
  readonly direction: 'debit' | 'credit';
  readonly amount: number;
};

/** One movement as a batch operation carries it. */
export type BatchItem =
  | { readonly op: 'credit' | 'debit'; readonly account: number; readonly amount: number }
  | {
      readonly op: 'transfer';
      readonly account: number;
      readonly to: number;
      readonly amount: number;
    };

export type Operation =
  | {
      readonly kind: 'credit' | 'debit';
      readonly account: number;
      readonly amount: number;
      /** Days before the run's start, for a back-dated `effectiveAt`. */
      readonly backdays?: number;
    }
  | {
      readonly kind: 'transfer';
      readonly account: number;
      readonly to: number;
      readonly amount: number;
    }
  | { readonly kind: 'ledger'; readonly legs: readonly Leg[] }
  | {
      readonly kind: 'hold';
      readonly account: number;
      readonly amount: number;
      readonly short: boolean;
    }
  | { readonly kind: 'capture'; readonly hold: number; readonly amount?: number }
  | { readonly kind: 'void'; readonly hold: number }
  | { readonly kind: 'reverse'; readonly of: number; readonly amount: number }
  | { readonly kind: 'close'; readonly account: number }
  | { readonly kind: 'period'; readonly account: number; readonly backdays: number }
  | {
      readonly kind: 'batch';
      readonly mode: 'independent' | 'atomic';
      readonly items: readonly BatchItem[];
    }
  /** Ledger events of one producer, sent together: shuffled, some twice, with sequence gaps. */
  | { readonly kind: 'events'; readonly items: readonly EventItem[] };

export interface EventItem {
  readonly type: 'credit' | 'debit';
  readonly account: number;
  /** Unique across the run: how the checker tells which event a journal record applied. */
  readonly amount: number;
  readonly sequence: number;
  readonly duplicate: boolean;
}

export type OperationKind = Operation['kind'];

export interface Plan {
  readonly seed: number;
  readonly accounts: readonly AccountSpec[];
  readonly monitors: readonly MonitorSpec[];
  readonly operations: readonly Operation[];
  /** Operations to leave out (SOAK_KNOWN_DEFECTS switches them on, docs/reliability.md). */
  readonly knownDefects: boolean;
}

export { EVENT_AMOUNT_BASE } from './draw';

export interface PlanOptions {
  readonly seed: number;
  readonly operations: number;
  readonly knownDefects?: boolean;
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
  const draw = drawer(random, accounts, options.knownDefects === true);
  const operations: Operation[] = [];
  for (let i = 0; i < options.operations; i++) operations.push(draw(operations));
  return {
    seed: options.seed,
    accounts,
    monitors,
    operations,
    knownDefects: options.knownDefects === true,
  };
}
