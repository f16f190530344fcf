import type { MonitorService } from '../../domain/monitors/service';
import type { RouteHandlers } from '../router';
import type { MONITOR_ROUTES } from './spec';

/** Balance monitors (docs/contract.md §28): the spec parsed the input. */
export function monitorHandlers(service: MonitorService): RouteHandlers<typeof MONITOR_ROUTES> {
  return {
    createMonitor: ({ params, command }) =>
      service.createMonitor(command.ctx, params.accountId, command.input, command.body),
    listMonitors: ({ principal, params }) => service.listMonitors(principal, params.accountId),
    getMonitor: ({ principal, params }) =>
      service.getMonitor(principal, params.accountId, params.monitorId),
    deleteMonitor: ({ principal, params }) =>
      service.deleteMonitor(principal, params.accountId, params.monitorId),
  };
}
