import { z } from 'zod';
import { EXPORT_FORMATS } from '../core/tasks';
import { applicationOfCallbackPath } from './names';

/** docs/contract.md §8: the job the outbox delivers to `export-jobs` (dispatcher and worker). */
export const ExportJobSchema = z.object({
  taskId: z.uuid(),
  executionId: z.uuid(),
  accountId: z.uuid(),
  format: z.enum(EXPORT_FORMATS),
  callbackPath: z.string().refine((path) => applicationOfCallbackPath(path) !== undefined, {
    message: 'must be /v1/callbacks/<applicationId>',
  }),
});
