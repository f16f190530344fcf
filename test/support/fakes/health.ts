import type { Mocked } from 'vitest';
import type { HealthPort } from '../../../functions/domain/health/port';
import { fakeOf } from './fake';

/** `HealthPort`: the table answers, unless the test says otherwise. */
export function fakeHealthPort(overrides: Partial<HealthPort> = {}): Mocked<HealthPort> {
  return fakeOf<HealthPort>({ readTable: async () => {} }, overrides);
}
