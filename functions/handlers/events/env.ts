import * as z from 'zod';
import { lazySchema } from '../../schemas/lazy';
import type { OwnConfig } from '../shared/config-types';
import { gapRefetchAfter, queueUrl } from '../shared/env-rules';

/** The events consumer's own variables. */
export const eventsEnv = lazySchema(() =>
  z
    .object({ DLQ_URL: queueUrl('DLQ_URL'), GAP_REFETCH_AFTER_SECONDS: gapRefetchAfter() })
    .transform(
      (e): OwnConfig<'events'> => ({
        deadLetterQueueUrl: e.DLQ_URL,
        gapRefetchAfterSeconds: e.GAP_REFETCH_AFTER_SECONDS,
      }),
    ),
);
