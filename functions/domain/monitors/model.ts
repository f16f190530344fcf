import { padSequence } from '../../contract/journal';
import { MONITOR_EVENT_TYPE, monitorEventId } from '../../contract/monitors';
import type { JournalRecord } from '../journal/model';

/**
 * Balance monitors (docs/contract.md §28): a condition on an account's `balance` or `available`
 * whose truth is followed along the journal. It fires on crossing — one event when the truth
 * flips — never on every record.
 */
export const MONITOR_FIELDS = ['balance', 'available'] as const;
export type MonitorField = (typeof MONITOR_FIELDS)[number];
export const MONITOR_OPERATORS = ['lt', 'lte', 'gt', 'gte'] as const;
export type MonitorOperator = (typeof MONITOR_OPERATORS)[number];

export interface MonitorCondition {
  readonly field: MonitorField;
  readonly operator: MonitorOperator;
  readonly value: number;
}

/** A monitor as stored. */
export interface Monitor extends MonitorCondition {
  readonly id: string;
  readonly accountId: string;
  readonly description?: string;
  /** The condition's truth after journal record `sequence`. */
  readonly state: boolean;
  /** When it last flipped (the record's committedAt), or its creation. */
  readonly stateSince: string;
  /**
   * The journal sequence `state` stands at: the account's `version` at creation, then the record
   * of the last flip. Records up to it are never evaluated again: a redelivered or replayed
   * batch flips nothing twice.
   */
  readonly sequence: number;
  readonly createdAt: string;
  /** Events of flips recorded but not yet confirmed published (the projector publishes them). */
  readonly pending?: readonly MonitorEvent[];
}

/** The wire shape (docs/contract.md §28): the state as `"true"`/`"false"`. */
export interface MonitorView extends MonitorCondition {
  readonly id: string;
  readonly accountId: string;
  readonly description?: string;
  readonly state: 'true' | 'false';
  readonly stateSince: string;
  readonly createdAt: string;
}

export const monitorView = (m: Monitor): MonitorView => ({
  id: m.id,
  accountId: m.accountId,
  field: m.field,
  operator: m.operator,
  value: m.value,
  ...(m.description === undefined ? {} : { description: m.description }),
  state: m.state ? 'true' : 'false',
  stateSince: m.stateSince,
  createdAt: m.createdAt,
});

/** Whether the condition holds for these values. */
export function holds(
  condition: MonitorCondition,
  values: { readonly balance: number; readonly available: number },
): boolean {
  const actual = values[condition.field];
  switch (condition.operator) {
    case 'lt':
      return actual < condition.value;
    case 'lte':
      return actual <= condition.value;
    case 'gt':
      return actual > condition.value;
    case 'gte':
      return actual >= condition.value;
  }
}

/** The CloudEvent of one flip (docs/contract.md §28), on the journal topic. */
export interface MonitorEvent {
  readonly specversion: '1.0';
  /** `<monitorId>:<sequence, 16 digits>`: the same for every publication of this flip. */
  readonly id: string;
  readonly source: string;
  readonly type: typeof MONITOR_EVENT_TYPE;
  readonly subject: string;
  readonly sequence: string;
  readonly time: string;
  readonly data: {
    readonly monitorId: string;
    readonly field: MonitorField;
    readonly operator: MonitorOperator;
    readonly value: number;
    readonly state: 'true' | 'false';
    readonly sequence: number;
    readonly balanceAfter: number;
    readonly availableAfter: number;
  };
}

export function monitorEvent(
  monitor: Monitor,
  record: JournalRecord,
  state: boolean,
  source: string,
): MonitorEvent {
  return {
    specversion: '1.0',
    id: monitorEventId(monitor.id, record.sequence),
    source,
    type: MONITOR_EVENT_TYPE,
    subject: monitor.accountId,
    sequence: padSequence(record.sequence),
    time: record.committedAt,
    data: {
      monitorId: monitor.id,
      field: monitor.field,
      operator: monitor.operator,
      value: monitor.value,
      state: state ? 'true' : 'false',
      sequence: record.sequence,
      balanceAfter: record.balanceAfter,
      availableAfter: record.availableAfter,
    },
  };
}

/** A monitor after `records`, and the flips on the way: one per change of truth. */
export interface Evaluation {
  readonly monitor: Monitor;
  readonly flips: readonly MonitorEvent[];
}

/**
 * Follows the monitor along records of its account in sequence order, from the one after
 * `monitor.sequence` (earlier ones were evaluated already, or predate it): each record whose
 * values change the truth is a flip. Pure: the same records give the same flips, however often.
 */
export function evaluate(
  monitor: Monitor,
  records: readonly JournalRecord[],
  source: string,
): Evaluation {
  let current = monitor;
  const flips: MonitorEvent[] = [];
  for (const record of records) {
    if (record.sequence <= current.sequence) continue;
    const truth = holds(current, {
      balance: record.balanceAfter,
      available: record.availableAfter,
    });
    if (truth === current.state) continue;
    flips.push(monitorEvent(current, record, truth, source));
    current = {
      ...current,
      state: truth,
      stateSince: record.committedAt,
      sequence: record.sequence,
    };
  }
  return { monitor: current, flips };
}
