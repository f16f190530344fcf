import * as z from 'zod';
import { EXPORT_FORMATS } from '../core/tasks';
import { APPLICATION_ID_PATTERN } from './names';
import { Uuid } from './schemas';

/** Callback paths of export jobs: this prefix, then the reporting application's id. */
export const CALLBACK_PATH_PREFIX = '/v1/callbacks/';

/**
 * The `export-jobs` message (docs/contract.md §8): written to the outbox by the task transaction, sent
 * by the dispatcher, read by export workers. Delivery is at least once; dedup by `executionId`.
 */
export const ExportJobSchema = z.object({
  taskId: Uuid,
  executionId: Uuid,
  accountId: Uuid,
  format: z.enum(EXPORT_FORMATS),
  callbackPath: z
    .string()
    .startsWith(CALLBACK_PATH_PREFIX)
    .refine((path) => APPLICATION_ID_PATTERN.test(applicationIdOf(path)), {
      message: `must be ${CALLBACK_PATH_PREFIX}<applicationId>`,
    }),
});

export type ExportJob = z.infer<typeof ExportJobSchema>;

/** The application a job reports to: the last segment of its callback path. */
export function applicationIdOf(callbackPath: string): string {
  return callbackPath.slice(CALLBACK_PATH_PREFIX.length);
}

/** The job in an SQS body, or why the body is not one. */
export function parseExportJob(
  body: string | undefined,
): { ok: true; job: ExportJob } | { ok: false; reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(body ?? '');
  } catch {
    return { ok: false, reason: 'body is not JSON' };
  }
  const parsed = ExportJobSchema.safeParse(value);
  if (parsed.success) return { ok: true, job: parsed.data };
  const reason = parsed.error.issues
    .map((i) => `${i.path.join('.') || '(job)'}: ${i.message}`)
    .join('; ');
  return { ok: false, reason };
}
