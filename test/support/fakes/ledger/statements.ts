import type { Mocked } from 'vitest';
import { NO_SUMS } from '../../../../functions/domain/statements/model';
import type { DaySumsPort, StatementPort } from '../../../../functions/domain/statements/port';
import {
  StatementService,
  type StatementServiceOptions,
} from '../../../../functions/domain/statements/service';
import { fakeOf, RECORDED } from '../fake';

/** `StatementPort`: no account, no entries, every write committed, unless the test says so. */
export function fakeStatementPort(overrides: Partial<StatementPort> = {}): Mocked<StatementPort> {
  return fakeOf<StatementPort>(
    {
      getEffectiveAccount: async () => undefined,
      effectiveSums: async () => NO_SUMS,
      effectiveDays: async () => [],
      countEffective: async () => 0,
      statementItems: async () => ({ items: [], nextCursor: null }),
      closePeriod: async () => ({ kind: 'committed' }),
      recordResponse: async () => RECORDED,
      findRecord: async () => undefined,
    },
    overrides,
  );
}

/** `DaySumsPort`: every day added, unless the test says otherwise. */
export function fakeDaySumsPort(overrides: Partial<DaySumsPort> = {}): Mocked<DaySumsPort> {
  return fakeOf<DaySumsPort>({ addDays: async () => {} }, overrides);
}

/** The statements service on `port`, its command responses plain (reads are what these test). */
export const statementServiceOn = (
  port: StatementPort,
  options: Partial<StatementServiceOptions> = {},
): StatementService =>
  new StatementService(port, {
    ...options,
    readers: [],
    idempotencyRetentionSeconds: 60,
    responses: {
      success: () => ({ statusCode: 200, body: '' }),
      rejection: () => ({ statusCode: 400, body: '' }),
    },
    newId: () => 'id',
  });
