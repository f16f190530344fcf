import * as z from 'zod';
import { lazySchema } from '../../schemas/lazy';
import type { OwnConfig } from '../shared/config-types';
import { queueUrl } from '../shared/env-rules';

/** The credit intake's own variables. */
export const creditIntakeEnv = lazySchema(() =>
  z
    .object({ CREDIT_INTAKE_QUEUE_URL: queueUrl('CREDIT_INTAKE_QUEUE_URL') })
    .transform(
      (e): OwnConfig<'creditIntake'> => ({ creditIntakeQueueUrl: e.CREDIT_INTAKE_QUEUE_URL }),
    ),
);
