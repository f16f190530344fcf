import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Construct } from 'constructs';
import { SEARCH_QUEUE_NAMES } from '../../../functions/contract/search';
import { SEARCH_PARTITION_PREFIXES } from '../../../functions/dynamodb/search/items';
import { keys } from '../../../functions/dynamodb/table/keys';
import { assertVisibilityCoversConsumer } from '../../events-timing';
import {
  handlerEntry,
  LedgerFunction,
  type LedgerFunctionDefaults,
} from '../shared/ledger-function';
import type { QueueWithDeadLetterRef } from '../shared/queue-with-dead-letter';
import { SEARCH_INDEXER_TIMEOUT } from './search-index-queues';

/** Jobs per invocation; each is one account's batch of records. */
export const SEARCH_INDEXER_BATCH_SIZE = 10;
/** Invocations at once: the index is eventually consistent, a backlog drains in parallel. */
export const SEARCH_INDEXER_MAX_CONCURRENCY = 5;

/** What the indexer reads of the ledger: accounts, their metadata and entries, entry pointers, journals. */
const SOURCE_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'] as const;
const SOURCE_PARTITIONS = [
  keys.account('*').pk,
  keys.entryPointer('*').pk,
  keys.journalHead('*').pk,
];
/** The index: records, items, counts (TransactWriteItems is authorised per item) and heads. */
const INDEX_ACTIONS = ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'] as const;
/** Index items of removed pairs, in pair partitions only (a statement of its own). */
const INDEX_REMOVE_PARTITIONS = [`${SEARCH_PARTITION_PREFIXES.pair}*`];
const INDEX_PARTITIONS = Object.values(SEARCH_PARTITION_PREFIXES).map((prefix) => `${prefix}*`);

const leadingKeys = (partitions: readonly string[]) => ({
  'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...partitions] },
});

export interface SearchIndexerProps {
  readonly functionDefaults?: LedgerFunctionDefaults;
  readonly table: dynamodb.ITable;
  /** `search-index` (the event source) and its DLQ. */
  readonly queues: QueueWithDeadLetterRef;
  /** What `loadConfig` reads in every handler (TABLE_NAME, …). */
  readonly environment: Readonly<Record<string, string>>;
}

/**
 * The search indexer (docs/contract.md §34; `functions/handlers/search-indexer/handler.ts`): a
 * {@link LedgerFunction} fed by `search-index` with partial batch responses. A job that fails is
 * redelivered and after `MAX_RECEIVE_COUNT` receives lands in `search-index-dlq`.
 */
export class SearchIndexer extends Construct {
  readonly function: LedgerFunction;
  readonly eventSource: SqsEventSource;

  constructor(scope: Construct, id: string, props: SearchIndexerProps) {
    super(scope, id);
    const { table, queues } = props;
    assertVisibilityCoversConsumer(
      queues.visibilityTimeout,
      SEARCH_INDEXER_TIMEOUT,
      SEARCH_QUEUE_NAMES.searchIndex,
    );
    this.function = new LedgerFunction(this, 'Function', {
      ...props.functionDefaults,
      entry: handlerEntry('search-indexer'),
      description: 'idempotent-ledger search indexer (search-index -> the search index)',
      timeout: SEARCH_INDEXER_TIMEOUT,
      // Exactly what functions/handlers/search-indexer/handler.ts reads at import.
      environment: { ...props.environment },
    });
    this.eventSource = new SqsEventSource(queues.queue, {
      batchSize: SEARCH_INDEXER_BATCH_SIZE,
      maxConcurrency: SEARCH_INDEXER_MAX_CONCURRENCY,
      reportBatchItemFailures: true,
    });
    this.function.addEventSource(this.eventSource);
    this.function.allow(
      'SearchSourceRead',
      SOURCE_ACTIONS,
      [table.tableArn],
      leadingKeys(SOURCE_PARTITIONS),
    );
    this.function.allow(
      'SearchIndexWrite',
      INDEX_ACTIONS,
      [table.tableArn],
      leadingKeys(INDEX_PARTITIONS),
    );
    this.function.allow(
      'SearchIndexRemove',
      ['dynamodb:DeleteItem'],
      [table.tableArn],
      leadingKeys(INDEX_REMOVE_PARTITIONS),
    );
  }
}
