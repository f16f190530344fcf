import { randomUUID } from 'node:crypto';
import type { ExportJob } from '../../functions/contract/export-job';

/** A valid export-jobs message (contract §8) with fresh ids; override what the test is about. */
export function exportJob(overrides: Partial<Record<keyof ExportJob, unknown>> = {}): ExportJob {
  return {
    taskId: randomUUID(),
    executionId: randomUUID(),
    accountId: randomUUID(),
    format: 'csv',
    callbackPath: '/v1/callbacks/export-worker',
    ...overrides,
  } as ExportJob;
}
