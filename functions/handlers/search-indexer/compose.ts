import { SearchIndexer } from '../../domain/search/indexer';
import { createSearchIndexStore } from '../../dynamodb/search/index-store';
import { createIndexSource } from '../../dynamodb/search/source';
import { resolveRuntime, type TableComposition, tableOptions } from '../shared/composition';
import type { ServiceConfig } from '../shared/config';
import { createSearchIndexerConsumer, type SearchIndexerHandler } from './consumer';

export type SearchIndexerComposition = TableComposition<ServiceConfig>;

/**
 * The search indexer (docs/contract.md §34): `search-index` → the index items, counts and
 * records of each job's objects, and each account's index head.
 */
export function composeSearchIndexer(options: SearchIndexerComposition): SearchIndexerHandler {
  const { log, metrics } = resolveRuntime(options);
  const table = tableOptions(options, metrics);
  return createSearchIndexerConsumer({
    indexer: new SearchIndexer({
      index: createSearchIndexStore(table),
      source: createIndexSource(table),
      log,
    }),
    log,
  });
}
