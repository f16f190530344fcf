import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { createSnsJournalEvents } from '../../aws/sns-journal-events';
import { createSqsSearchIndex } from '../../aws/sqs/search-index';
import { journalEventSource } from '../../contract/journal';
import { JournalProjector } from '../../domain/journal-projector/projector';
import { createJournalStore } from '../../dynamodb/journal/store';
import { createMonitorEvaluationStore } from '../../dynamodb/monitors/store';
import { createDaySumsStore } from '../../dynamodb/statements/days';
import { resolveRuntime, type TableComposition, tableOptions } from '../shared/composition';
import type { JournalProjectorConfig } from '../shared/config';
import { type JournalProjectorHandler, journalStreamHandler } from './stream-handler';

export interface JournalProjectorComposition extends TableComposition<JournalProjectorConfig> {
  readonly dynamo: DynamoDBClient;
  readonly sns: SNSClient;
  /** Where `search-index` is (`config.searchIndexQueueUrl`): the search hand-off (§34). */
  readonly sqs?: SQSClient;
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
      days: createDaySumsStore(table),
      events: createSnsJournalEvents(options.sns, config.journalTopicArn),
      source: journalEventSource(config.stage),
      ...searchHandOff(options),
      clock,
      log,
      metrics,
    }),
  );
}

/** The indexer's queue, when the configuration names one (docs/contract.md §34). */
function searchHandOff({ config, sqs }: JournalProjectorComposition) {
  const url = config.searchIndexQueueUrl;
  if (url === undefined) return {};
  return { search: createSqsSearchIndex(sqs ?? new SQSClient({}), url) };
}
