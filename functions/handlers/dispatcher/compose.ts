import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { createSqsCreditIntake } from '../../aws/sqs/credit-intake';
import { createSqsExportJobs } from '../../aws/sqs/export-jobs';
import { DEFAULT_INTAKE_STRANDED_AFTER_SECONDS } from '../../contract/intake';
import { createOutboxStore } from '../../dynamodb/exports/outbox-store';
import { createIntakeDueStore } from '../../dynamodb/intake/due';
import { type Composition, resolveRuntime } from '../shared/composition';
import type { DispatcherConfig } from '../shared/config';
import { createOutboxDispatcher, type DispatcherHandler } from './dispatcher';

export interface DispatcherComposition extends Composition<DispatcherConfig> {
  readonly dynamo: DynamoDBClient;
  readonly sqs: SQSClient;
}

/**
 * The outbox dispatcher: table stream → `export-jobs`, marking each item dispatched, and new
 * pending credits → their accounts' `INTAKE_DUE` markers and `credit-intake` (§24, §36).
 */
export function composeDispatcherHandler(options: DispatcherComposition): DispatcherHandler {
  const { clock, log, metrics } = resolveRuntime(options);
  const table = { client: options.dynamo, tableName: options.config.tableName };
  return createOutboxDispatcher({
    jobs: createSqsExportJobs(options.sqs, options.config.exportJobsQueueUrl),
    creditIntake: createSqsCreditIntake(options.sqs, options.config.creditIntakeQueueUrl),
    outbox: createOutboxStore(table),
    intakeDue: createIntakeDueStore(table),
    strandedAfterSeconds:
      options.config.intakeStrandedAfterSeconds ?? DEFAULT_INTAKE_STRANDED_AFTER_SECONDS,
    clock,
    log,
    metrics,
  });
}
