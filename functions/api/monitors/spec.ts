import { OPERATION_IDS } from '../../domain/idempotency/operations';
import { AccountPath } from '../../schemas/accounts';
import { CreateMonitorBody, Monitor, MonitorList, MonitorPath } from '../../schemas/monitors';
import { named, type RouteDocs, type RouteTable } from '../spec';

const MONITOR = named('Monitor', Monitor);

/** Balance monitors (docs/contract.md §28): the owner's only. */
export const MONITOR_ROUTES = {
  createMonitor: {
    method: 'POST',
    path: '/v1/accounts/{accountId}/monitors',
    idempotency: OPERATION_IDS.createMonitor,
    tag: 'monitors',
    params: AccountPath,
    body: named('CreateMonitor', CreateMonitorBody),
    response: { status: 201, body: MONITOR },
    problems: ['monitor_limit_reached'],
  },
  listMonitors: {
    method: 'GET',
    path: '/v1/accounts/{accountId}/monitors',
    tag: 'monitors',
    params: AccountPath,
    response: { status: 200, body: named('MonitorList', MonitorList) },
  },
  getMonitor: {
    method: 'GET',
    path: '/v1/accounts/{accountId}/monitors/{monitorId}',
    tag: 'monitors',
    params: MonitorPath,
    response: { status: 200, body: MONITOR },
  },
  deleteMonitor: {
    method: 'DELETE',
    path: '/v1/accounts/{accountId}/monitors/{monitorId}',
    tag: 'monitors',
    params: MonitorPath,
    response: { status: 204 },
  },
} as const satisfies RouteTable;

/** What the OpenAPI document says of each route of MONITOR_ROUTES (a function, so that nothing of it is evaluated, or bundled, where only the routes are used: the document's generator calls it). */
export const monitorRouteDocs = (): RouteDocs<typeof MONITOR_ROUTES> => ({
  createMonitor: {
    summary: 'Create a balance monitor',
    description:
      'A condition on balance or available. Its state comes from the current values; after ' +
      'each journal record the state is evaluated again, and when it flips one ' +
      'ledger.balance_monitor.v1 CloudEvent is published on the journal topic. At most 10 ' +
      'per account.',
    response: 'Monitor created',
  },
  listMonitors: {
    summary: "List an account's monitors",
    response: 'Oldest first',
  },
  getMonitor: {
    summary: 'Read a monitor',
    response: 'The monitor and its state',
  },
  deleteMonitor: {
    summary: 'Delete a monitor',
    description: 'Idempotent: deleting a monitor that is already gone answers 204 too.',
    response: 'Deleted (or already gone)',
  },
});
