import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { SEARCH_QUEUE_NAMES } from '../../../functions/contract/search';
import { minimumVisibilityTimeout } from '../../events-timing';
import { QueueWithDeadLetter } from '../shared/queue-with-dead-letter';

/**
 * Lambda timeout of the search indexer (`functions/handlers/search-indexer/`): a job indexes
 * the entries of one account update batch, one small transaction each. Both stacks read it:
 * the indexer runs with it, the queue's visibility timeout derives from it.
 */
export const SEARCH_INDEXER_TIMEOUT = Duration.seconds(60);

export interface SearchIndexQueuesProps {
  /** Prepended to both queue names, e.g. `prod-` gives `prod-search-index`. @default '' */
  readonly namePrefix?: string;
  /** What happens to both queues when they leave the stack. @default RemovalPolicy.RETAIN */
  readonly removalPolicy?: RemovalPolicy;
}

/**
 * `search-index` (docs/contract.md §34): one message per job, sent by the journal projector,
 * consumed by the search indexer; and `search-index-dlq`, where a job that failed
 * `MAX_RECEIVE_COUNT` receives lands. SQS-managed encryption, TLS only; visibility 6 × the
 * indexer's timeout.
 */
export class SearchIndexQueues extends QueueWithDeadLetter {
  constructor(scope: Construct, id: string, props: SearchIndexQueuesProps = {}) {
    const prefix = props.namePrefix ?? '';
    super(scope, id, {
      queueName: `${prefix}${SEARCH_QUEUE_NAMES.searchIndex}`,
      deadLetterQueueName: `${prefix}${SEARCH_QUEUE_NAMES.searchIndexDeadLetter}`,
      visibilityTimeout: minimumVisibilityTimeout(SEARCH_INDEXER_TIMEOUT),
      removalPolicy: props.removalPolicy,
    });
  }
}
