import type { OwnConfig } from '../shared/config-types';
import { envSchema, optional, queueUrl, stageName, topicArn } from '../shared/env-rules';

/** The journal projector's own variables. */
export const journalProjectorEnv = envSchema(
  {
    JOURNAL_TOPIC_ARN: topicArn('JOURNAL_TOPIC_ARN', 'be the journal topic ARN'),
    STAGE: stageName(),
    SEARCH_INDEX_QUEUE_URL: optional(queueUrl('SEARCH_INDEX_QUEUE_URL')),
  },
  (e): OwnConfig<'journalProjector'> => ({
    journalTopicArn: e.JOURNAL_TOPIC_ARN,
    stage: e.STAGE,
    ...(e.SEARCH_INDEX_QUEUE_URL ? { searchIndexQueueUrl: e.SEARCH_INDEX_QUEUE_URL } : {}),
  }),
);
