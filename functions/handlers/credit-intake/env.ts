import type { OwnConfig } from '../shared/config-types';
import { envSchema, queueUrl } from '../shared/env-rules';

/** The credit intake's own variables. */
export const creditIntakeEnv = envSchema(
  { CREDIT_INTAKE_QUEUE_URL: queueUrl('CREDIT_INTAKE_QUEUE_URL') },
  (e): OwnConfig<'creditIntake'> => ({ creditIntakeQueueUrl: e.CREDIT_INTAKE_QUEUE_URL }),
);
