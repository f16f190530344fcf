import { randomUUID } from 'node:crypto';
import type { ExportJob } from '../../../functions/domain/exports/model';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { APP, SECRET } from '../callbacks';

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

/** One export job of the export application (docs/contract.md §8) for worker tests. */
export const EXPORT_JOB = {
  taskId: '11111111-1111-4111-8111-111111111111',
  executionId: '22222222-2222-4222-8222-222222222222',
  accountId: '33333333-3333-4333-8333-333333333333',
  format: 'csv' as const,
  callbackPath: `/v1/callbacks/${APP}`,
};

/** The export application's signing secrets, as the worker reads them. */
export const exportAppSecrets = () => staticCallbackSecrets(JSON.stringify({ [APP]: [SECRET] }));
