import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SNSClient } from '@aws-sdk/client-sns';
import { createSnsJournalEvents } from '../../aws/sns-journal-events';
import { journalEventSource } from '../../contract/journal';
import { JournalProjector } from '../../domain/journal/projector';
import { createJournalStore } from '../../dynamodb/journal/store';
import { createMonitorEvaluationStore } from '../../dynamodb/monitors/store';
import { resolveRuntime, type TableComposition, tableOptions } from '../shared/composition';
import type { JournalProjectorConfig } from '../shared/config';
import { type JournalProjectorHandler, journalStreamHandler } from './stream-handler';

export interface JournalProjectorComposition extends TableComposition<JournalProjectorConfig> {
  readonly dynamo: DynamoDBClient;
  readonly sns: SNSClient;
}

/**
 * The journal projector: table stream → journal records and head → `ledger.journal.v1` on SNS,
 * and balance monitors evaluated after each update → `ledger.balance_monitor.v1` (§28).
 */
export function composeJournalProjector(
  options: JournalProjectorComposition,
): JournalProjectorHandler {
  const { clock, log, metrics } = resolveRuntime(options);
  const { config } = options;
  const table = tableOptions(options, metrics);
  return journalStreamHandler(
    new JournalProjector({
      store: createJournalStore(table),
      monitors: createMonitorEvaluationStore(table),
      events: createSnsJournalEvents(options.sns, config.journalTopicArn),
      source: journalEventSource(config.stage),
      clock,
      log,
      metrics,
    }),
  );
}
