import * as z from 'zod';
import { EXPORT_FORMATS, MAX_LISTED_EXECUTIONS } from '../../contract/exports';
import {
  APPLICATION_OF_CALLBACK_PATH_MESSAGE,
  applicationOfCallbackPath,
} from '../../contract/names';
import { EXECUTION_STATUSES, type ExportJob } from '../../domain/exports/model';
import { lazySchema } from '../lazy';
import { Gaps, Sha256Hex, Timestamp, Uuid } from '../shared';

export const CreateExportBody = lazySchema(() =>
  z.strictObject({ format: z.enum(EXPORT_FORMATS) }),
);

/** A rerun takes no options: the body must be `{}`. */
export const RerunBody = lazySchema(() => z.strictObject({}));

export const TaskPath = lazySchema(() => z.strictObject({ taskId: Uuid }));

export const Execution = lazySchema(() =>
  z.object({
    id: Uuid,
    status: z.enum(EXECUTION_STATUSES),
    progress: z.number().int().min(0).max(100),
    lastSequence: z.number().int().min(0),
    gaps: Gaps,
    gapsTruncated: z.boolean(),
    /** Past it, a non-terminal execution is timed out by the sweeper (§12). */
    deadline: Timestamp.optional(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
);

export const Task = lazySchema(() =>
  z.object({
    id: Uuid,
    accountId: Uuid,
    format: z.enum(EXPORT_FORMATS),
    status: z.enum(EXECUTION_STATUSES),
    progress: z.number().int().min(0).max(100),
    currentExecutionId: Uuid,
    /** The 20 newest executions, oldest first (§12). */
    executions: z.array(Execution).max(MAX_LISTED_EXECUTIONS),
    /** True when older executions were left out. */
    executionsTruncated: z.boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
);

/** `GET /v1/tasks/{taskId}/result` (§12): the current execution's file and a download link. */
export const ExportResult = lazySchema(() =>
  z.object({
    format: z.enum(EXPORT_FORMATS),
    rows: z.number().int().min(0),
    bytes: z.number().int().min(0),
    sha256: Sha256Hex,
    /** Presigned GET, valid 15 minutes. */
    url: z.url(),
    urlExpiresAt: Timestamp,
  }),
);

/**
 * The `export-jobs` message (docs/contract.md §8): written to the outbox by the task transaction, sent
 * by the dispatcher, read by export workers. Delivery is at least once; dedup by `executionId`.
 */
export const ExportJobSchema = lazySchema(
  () =>
    z.object({
      taskId: Uuid,
      executionId: Uuid,
      accountId: Uuid,
      format: z.enum(EXPORT_FORMATS),
      callbackPath: z.string().refine((path) => applicationOfCallbackPath(path) !== undefined, {
        message: APPLICATION_OF_CALLBACK_PATH_MESSAGE,
      }),
    }) satisfies z.ZodType<ExportJob>,
);
