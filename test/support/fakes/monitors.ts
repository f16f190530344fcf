import type { Mocked } from 'vitest';
import type { MonitorEvaluationPort, MonitorPort } from '../../../functions/domain/monitors/port';
import { fakeOf } from './fake';

/** `MonitorPort`: no account, no monitors, every write committed, unless told otherwise. */
export function fakeMonitorPort(overrides: Partial<MonitorPort> = {}): Mocked<MonitorPort> {
  return fakeOf<MonitorPort>(
    {
      recordResponse: async () => ({ kind: 'recorded' }),
      findRecord: async () => undefined,
      getAccount: async () => undefined,
      createMonitor: async () => ({ kind: 'committed' }),
      listMonitors: async () => [],
      getMonitor: async () => undefined,
      deleteMonitor: async () => {},
    },
    overrides,
  );
}

/** `MonitorEvaluationPort`: no monitors, every flip recorded, unless told otherwise. */
export function fakeMonitorEvaluationPort(
  overrides: Partial<MonitorEvaluationPort> = {},
): Mocked<MonitorEvaluationPort> {
  return fakeOf<MonitorEvaluationPort>(
    {
      listMonitors: async () => [],
      recordFlips: async () => ({ kind: 'recorded' }),
      confirmPublished: async () => {},
    },
    overrides,
  );
}
