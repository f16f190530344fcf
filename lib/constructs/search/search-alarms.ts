import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { ALARM_SLUGS as S } from '../../alarm-catalog';
import type { OperationsAlarmSpec } from '../operations/operations-alarms';

/** Shown on the search-index DLQ alarm. */
export const SEARCH_INDEX_DLQ_ALARM_DESCRIPTION = [
  'search-index-dlq holds at least one job: the search indexer failed it on each of 5 receives, so',
  'the entries or the account it names are missing from search results (docs/contract.md §34).',
  'Money is not affected. First: find "indexing failed; will be redelivered" in the indexer log',
  'group, fix the cause, then move the jobs back to search-index (a job indexed twice writes',
  'nothing twice).',
].join(' ');

/** Shown on the indexer's Errors alarm. */
export const SEARCH_INDEXER_ERRORS_DESCRIPTION = [
  'The search indexer failed at least one whole invocation in 5 minutes (a crash at cold start,',
  'its 60 s timeout, out of memory). Its jobs return to search-index and, after 5 receives, land',
  'in search-index-dlq; search results lag meanwhile, money is not affected. First: run the',
  'runbook query on the indexer log group and compare with the last deployment.',
].join(' ');

type SearchSlug = typeof S.searchIndexDeadLetters | typeof S.searchIndexerErrors;

/**
 * The search indexer's alarms (docs/contract.md §34): its DLQ not empty and its own failures,
 * in ServiceAlarms' house style (`add`).
 */
export function searchAlarms(
  add: (id: string, spec: OperationsAlarmSpec) => cloudwatch.Alarm,
  props: {
    readonly searchIndexer: lambda.IFunction;
    readonly searchIndexDeadLetterQueue: sqs.IQueue;
  },
): Record<SearchSlug, cloudwatch.Alarm> {
  return {
    [S.searchIndexDeadLetters]: add('SearchIndexDeadLetterAlarm', {
      slug: S.searchIndexDeadLetters,
      description: SEARCH_INDEX_DLQ_ALARM_DESCRIPTION,
      metric: props.searchIndexDeadLetterQueue.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(1),
        statistic: cloudwatch.Stats.MAXIMUM,
      }),
      threshold: 1,
    }),
    [S.searchIndexerErrors]: add('SearchIndexerErrorsAlarm', {
      slug: S.searchIndexerErrors,
      description: SEARCH_INDEXER_ERRORS_DESCRIPTION,
      metric: props.searchIndexer.metricErrors({
        period: Duration.minutes(5),
        statistic: cloudwatch.Stats.SUM,
      }),
      threshold: 1,
    }),
  };
}
