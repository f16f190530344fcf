import { OPERATION_IDS } from '../../domain/idempotency/operations';
import { AccountPath } from '../../schemas/accounts';
import { CreateMonitorBody, Monitor, MonitorList, MonitorPath } from '../../schemas/monitors';
import { named, type RouteTable } from '../spec';

const MONITOR = named('Monitor', Monitor);

/** Balance monitors (docs/contract.md §28): the owner's only. */
export const MONITOR_ROUTES = {
  createMonitor: {
    method: 'POST',
    path: '/v1/accounts/{accountId}/monitors',
    idempotency: OPERATION_IDS.createMonitor,
    summary: 'Create a balance monitor',
    description:
      'A condition on balance or available. Its state comes from the current values; after ' +
      'each journal record the state is evaluated again, and when it flips one ' +
      'ledger.balance_monitor.v1 CloudEvent is published on the journal topic. At most 10 ' +
      'per account.',
    tag: 'monitors',
    params: AccountPath,
    body: named('CreateMonitor', CreateMonitorBody),
    response: { status: 201, description: 'Monitor created', body: MONITOR },
    problems: ['monitor_limit_reached'],
  },
  listMonitors: {
    method: 'GET',
    path: '/v1/accounts/{accountId}/monitors',
    summary: "List an account's monitors",
    tag: 'monitors',
    params: AccountPath,
    response: { status: 200, description: 'Oldest first', body: named('MonitorList', MonitorList) },
  },
  getMonitor: {
    method: 'GET',
    path: '/v1/accounts/{accountId}/monitors/{monitorId}',
    summary: 'Read a monitor',
    tag: 'monitors',
    params: MonitorPath,
    response: { status: 200, description: 'The monitor and its state', body: MONITOR },
  },
  deleteMonitor: {
    method: 'DELETE',
    path: '/v1/accounts/{accountId}/monitors/{monitorId}',
    summary: 'Delete a monitor',
    description: 'Idempotent: deleting a monitor that is already gone answers 204 too.',
    tag: 'monitors',
    params: MonitorPath,
    response: { status: 204, description: 'Deleted (or already gone)' },
  },
} as const satisfies RouteTable;
