import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { createSqsCreditIntake } from '../../aws/sqs-credit-intake';
import { createSqsExportJobs } from '../../aws/sqs-export-jobs';
import { createOutboxStore } from '../../dynamodb/exports/outbox-store';
import { type Composition, resolveRuntime } from '../shared/composition';
import type { DispatcherConfig } from '../shared/config';
import { createOutboxDispatcher, type DispatcherHandler } from './dispatcher';

export interface DispatcherComposition extends Composition<DispatcherConfig> {
  readonly dynamo: DynamoDBClient;
  readonly sqs: SQSClient;
}

/**
 * The outbox dispatcher: table stream → `export-jobs`, marking each item dispatched, and new
 * pending credits → `credit-intake` (docs/contract.md §24).
 */
export function composeDispatcherHandler(options: DispatcherComposition): DispatcherHandler {
  const { clock, log, metrics } = resolveRuntime(options);
  return createOutboxDispatcher({
    jobs: createSqsExportJobs(options.sqs, options.config.exportJobsQueueUrl),
    creditIntake: createSqsCreditIntake(options.sqs, options.config.creditIntakeQueueUrl),
    outbox: createOutboxStore({ client: options.dynamo, tableName: options.config.tableName }),
    clock,
    log,
    metrics,
  });
}
