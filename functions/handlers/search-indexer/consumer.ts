import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { SearchIndexer } from '../../domain/search/indexer';
import { errorFields, type Log } from '../../domain/shared/log';
import { IndexJobMessage } from '../../schemas/search';

export type SearchIndexerHandler = (event: SQSEvent) => Promise<SQSBatchResponse>;

/**
 * The indexer's SQS consumer (docs/contract.md §34; ReportBatchItemFailures): each message is
 * one job; a job that fails is redelivered and, after MAX_RECEIVE_COUNT receives, lands in
 * `search-index-dlq`. A message that is no job is dropped with an error log (nothing would
 * ever read it better).
 */
export function createSearchIndexerConsumer(deps: {
  readonly indexer: Pick<SearchIndexer, 'run'>;
  readonly log: Log;
}): SearchIndexerHandler {
  const { indexer, log } = deps;
  return async (event) => {
    const failures = await Promise.all(
      event.Records.map(async (record) => {
        let body: unknown;
        try {
          body = JSON.parse(record.body);
        } catch {
          body = undefined;
        }
        const job = IndexJobMessage.safeParse(body);
        if (!job.success) {
          log.error('search-index message is no job; dropped', { messageId: record.messageId });
          return [];
        }
        try {
          await indexer.run(job.data);
          return [];
        } catch (error) {
          log.error('indexing failed; will be redelivered', { ...job.data, ...errorFields(error) });
          return [{ itemIdentifier: record.messageId }];
        }
      }),
    );
    return { batchItemFailures: failures.flat() };
  };
}
