import type { OwnConfig } from '../shared/config-types';
import { envSchema, queueUrl } from '../shared/env-rules';

/** The outbox dispatcher's own variables. */
export const dispatcherEnv = envSchema(
  {
    EXPORT_JOBS_QUEUE_URL: queueUrl('EXPORT_JOBS_QUEUE_URL'),
    CREDIT_INTAKE_QUEUE_URL: queueUrl('CREDIT_INTAKE_QUEUE_URL'),
  },
  (e): OwnConfig<'dispatcher'> => ({
    exportJobsQueueUrl: e.EXPORT_JOBS_QUEUE_URL,
    creditIntakeQueueUrl: e.CREDIT_INTAKE_QUEUE_URL,
  }),
);
