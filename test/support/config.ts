import type { ServiceConfig } from '../../functions/handlers/shared/config';

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
    ...overrides,
  };
}
