import type { OwnConfig } from '../shared/config-types';
import { envSchema, gapRefetchAfter, queueUrl } from '../shared/env-rules';

/** The events consumer's own variables. */
export const eventsEnv = envSchema(
  { DLQ_URL: queueUrl('DLQ_URL'), GAP_REFETCH_AFTER_SECONDS: gapRefetchAfter() },
  (e): OwnConfig<'events'> => ({
    deadLetterQueueUrl: e.DLQ_URL,
    gapRefetchAfterSeconds: e.GAP_REFETCH_AFTER_SECONDS,
  }),
);
