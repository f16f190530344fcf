import type { OwnConfig } from '../shared/config-types';
import { envSchema, gapRefetchAfter, queueUrl, stageName, topicArn } from '../shared/env-rules';

/** The sweeper's own variables. */
export const sweeperEnv = envSchema(
  {
    GAP_REFETCH_AFTER_SECONDS: gapRefetchAfter(),
    GAP_TOPIC_ARN: topicArn('GAP_TOPIC_ARN', 'be the gap topic ARN'),
    STAGE: stageName(),
    CREDIT_INTAKE_QUEUE_URL: queueUrl('CREDIT_INTAKE_QUEUE_URL'),
  },
  (e): OwnConfig<'sweeper'> => ({
    gapRefetchAfterSeconds: e.GAP_REFETCH_AFTER_SECONDS,
    gapTopicArn: e.GAP_TOPIC_ARN,
    stage: e.STAGE,
    creditIntakeQueueUrl: e.CREDIT_INTAKE_QUEUE_URL,
  }),
);
