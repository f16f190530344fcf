import * as z from 'zod';
import { lazySchema } from '../../schemas/lazy';
import type { OwnConfig } from '../shared/config-types';
import { queueUrl, stageName, topicArn } from '../shared/env-rules';

/** The journal projector's own variables. */
export const journalProjectorEnv = lazySchema(() =>
  z
    .object({
      JOURNAL_TOPIC_ARN: topicArn('JOURNAL_TOPIC_ARN', 'be the journal topic ARN'),
      STAGE: stageName(),
      SEARCH_INDEX_QUEUE_URL: queueUrl('SEARCH_INDEX_QUEUE_URL').optional(),
    })
    .transform(
      (e): OwnConfig<'journalProjector'> => ({
        journalTopicArn: e.JOURNAL_TOPIC_ARN,
        stage: e.STAGE,
        ...(e.SEARCH_INDEX_QUEUE_URL ? { searchIndexQueueUrl: e.SEARCH_INDEX_QUEUE_URL } : {}),
      }),
    ),
);
