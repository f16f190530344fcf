import * as z from 'zod';
import { EXPORT_FORMATS, type ExportJob } from '../core/tasks';
import { APPLICATION_OF_CALLBACK_PATH_MESSAGE, applicationOfCallbackPath } from './names';
import { Uuid } from './schemas';

/**
 * The `export-jobs` message (docs/contract.md §8): written to the outbox by the task transaction, sent
 * by the dispatcher, read by export workers. Delivery is at least once; dedup by `executionId`.
 */
export const ExportJobSchema = z.object({
  taskId: Uuid,
  executionId: Uuid,
  accountId: Uuid,
  format: z.enum(EXPORT_FORMATS),
  callbackPath: z.string().refine((path) => applicationOfCallbackPath(path) !== undefined, {
    message: APPLICATION_OF_CALLBACK_PATH_MESSAGE,
  }),
}) satisfies z.ZodType<ExportJob>;

/** The core's type of the message; the schema above is checked against it by the compiler. */
export type { ExportJob };
