import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DEFAULT_INTAKE_SHARDS } from '../../functions/domain/accounts/model';
import type { ServiceConfig, SweeperConfig } from '../../functions/handlers/shared/config';

/** A complete service configuration for tests; override what the test is about. */
export function testConfig(overrides: Partial<ServiceConfig> = {}): ServiceConfig {
  return {
    tableName: 'ledger',
    idempotencyRetentionSeconds: 3600,
    inboxRetentionSeconds: 3600,
    exportFee: 100,
    callbackApplicationId: 'export-worker',
    exportExecutionTimeoutSeconds: 900,
    maxRerunsPerTask: 20,
    exportRetentionDays: 7,
    exportBucket: 'ledger-exports',
    backdateLimitDays: 90,
    intakeShards: DEFAULT_INTAKE_SHARDS,
    ...overrides,
  };
}

/**
 * A sweeper's configuration, SNS and SQS clients for tests that do not look at gaps: the topic is
 * never reached (a publish would fail at once, and only a ledger-event gap publishes).
 */
export function testSweeper(overrides: Partial<SweeperConfig> = {}): {
  config: SweeperConfig;
  sns: SNSClient;
  sqs: SQSClient;
} {
  const nowhere = {
    region: 'us-east-1',
    endpoint: 'http://127.0.0.1:9',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    maxAttempts: 1,
  };
  return {
    config: {
      ...testConfig(overrides),
      gapRefetchAfterSeconds: 300,
      backdateLimitDays: 90,
      gapTopicArn: 'arn:aws:sns:us-east-1:000000000000:ledger-gaps',
      stage: 'test',
      creditIntakeQueueUrl: 'http://127.0.0.1:9/000000000000/credit-intake',
      ...overrides,
    },
    sns: new SNSClient(nowhere),
    // Reached only by a stranded deferred account's INTAKE_DUE marker (docs/contract.md §24).
    sqs: new SQSClient(nowhere),
  };
}
