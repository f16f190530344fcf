import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { MAX_MONITORS_PER_ACCOUNT } from '../../contract/monitors';
import {
  MONITOR_FIELDS,
  MONITOR_OPERATORS,
  type Monitor,
  type MonitorEvent,
} from '../../domain/monitors/model';
import type { MonitoredAccount } from '../../domain/monitors/port';
import { putNew, toAttributes } from '../table/attributes';
import { counterDownItem, counterUpItem } from '../table/counter';
import { keys } from '../table/keys';

const MONITOR_KIND = 'monitor';
const COUNT_KIND = 'monitor-count';

/** A new monitor: only ever created under its fresh id. */
export const newMonitorItem = (tableName: string, monitor: Monitor): TransactWriteItem =>
  putNew(tableName, {
    ...keys.monitor(monitor.accountId, monitor.id),
    kind: MONITOR_KIND,
    ...monitor,
  });

/** The account's monitor count up by one, only below the limit (docs/contract.md §28). */
export const countUpItem = (tableName: string, accountId: string): TransactWriteItem =>
  counterUpItem(tableName, keys.monitorCount(accountId), MAX_MONITORS_PER_ACCOUNT, COUNT_KIND);

/** The count down by one, with the monitor's removal. */
export const countDownItem = (tableName: string, accountId: string): TransactWriteItem =>
  counterDownItem(tableName, keys.monitorCount(accountId));

/**
 * The account still as read: its owner, and the version its values stood at — a change in
 * between would be evaluated against a state computed from older values.
 */
export function accountAsReadItem(tableName: string, read: MonitoredAccount): TransactWriteItem {
  return {
    ConditionCheck: {
      TableName: tableName,
      Key: toAttributes(keys.account(read.accountId)),
      ConditionExpression:
        read.version === 0
          ? '#owner = :owner AND (attribute_not_exists(#version) OR #version = :version)'
          : '#owner = :owner AND #version = :version',
      ExpressionAttributeNames: { '#owner': 'ownerId', '#version': 'version' },
      ExpressionAttributeValues: toAttributes({ ':owner': read.ownerId, ':version': read.version }),
    },
  };
}

const oneOf = <T extends string>(list: readonly T[], value: unknown): T => {
  const found = list.find((v) => v === value);
  if (found === undefined) throw new Error(`monitor item has an unknown value: ${String(value)}`);
  return found;
};

export function toMonitor(item: Readonly<Record<string, unknown>>): Monitor {
  const pending = Array.isArray(item.pending) ? (item.pending as MonitorEvent[]) : [];
  return {
    id: String(item.id),
    accountId: String(item.accountId),
    field: oneOf(MONITOR_FIELDS, item.field),
    operator: oneOf(MONITOR_OPERATORS, item.operator),
    value: Number(item.value),
    ...(typeof item.description === 'string' ? { description: item.description } : {}),
    state: item.state === true,
    stateSince: String(item.stateSince),
    sequence: Number(item.sequence),
    createdAt: String(item.createdAt),
    ...(pending.length > 0 ? { pending } : {}),
  };
}
