import * as z from 'zod';
import { lazySchema } from '../../schemas/lazy';
import type { OwnConfig } from '../shared/config-types';
import { queueUrl } from '../shared/env-rules';

/** The outbox dispatcher's own variables. */
export const dispatcherEnv = lazySchema(() =>
  z
    .object({
      EXPORT_JOBS_QUEUE_URL: queueUrl('EXPORT_JOBS_QUEUE_URL'),
      CREDIT_INTAKE_QUEUE_URL: queueUrl('CREDIT_INTAKE_QUEUE_URL'),
    })
    .transform(
      (e): OwnConfig<'dispatcher'> => ({
        exportJobsQueueUrl: e.EXPORT_JOBS_QUEUE_URL,
        creditIntakeQueueUrl: e.CREDIT_INTAKE_QUEUE_URL,
      }),
    ),
);
