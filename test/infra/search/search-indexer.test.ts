/**
 * Search on AWS (docs/contract.md §34): `search-index` and its DLQ, the indexer and its event
 * source, its role, its alarms, and the projector's hand-off (filters, environment, send).
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  importOf,
  logicalIdOf,
  propertiesOf,
  propertiesOfId,
  SYNTH_HOOK_TIMEOUT_MS,
  type SynthesizedLedger,
  statementsOf,
  synthLedger,
} from '../synth';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

describe('search index queues, indexer and alarms (default config)', () => {
  let ledger: SynthesizedLedger;
  let template: Template;
  let queueId: string;
  let dlqId: string;
  let functionId: string;

  beforeAll(() => {
    ledger = synthLedger();
    template = ledger.stateless;
    queueId = logicalIdOf(ledger.stacks.stateful.searchIndexQueues.queue);
    dlqId = logicalIdOf(ledger.stacks.stateful.searchIndexQueues.deadLetterQueue);
    functionId = logicalIdOf(ledger.stacks.stateless.searchIndexer.function);
  }, SYNTH_HOOK_TIMEOUT_MS);

  const mappingsOf = (id: string) =>
    Object.values(propertiesOf(template, 'AWS::Lambda::EventSourceMapping')).filter((m) =>
      same(m.FunctionName, { Ref: id }),
    );

  it('names the queues <stage>-search-index and its DLQ, redriven after 5 receives', () => {
    const queue = propertiesOfId(ledger.stateful, 'AWS::SQS::Queue', queueId);
    const dlq = propertiesOfId(ledger.stateful, 'AWS::SQS::Queue', dlqId);
    expect(queue.QueueName).toBe('dev-search-index');
    expect(dlq.QueueName).toBe('dev-search-index-dlq');
    expect(queue.SqsManagedSseEnabled).toBe(true);
    expect(queue.RedrivePolicy).toMatchObject({ maxReceiveCount: 5 });
    expect(queue.VisibilityTimeout).toBe(360);
  });

  it('feeds the indexer from search-index with partial batch responses', () => {
    const [mapping, ...more] = mappingsOf(functionId);
    expect(more).toEqual([]);
    expect(mapping).toMatchObject({
      EventSourceArn: importOf(ledger, { 'Fn::GetAtt': [queueId, 'Arn'] }),
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 5 },
    });
    const fn = propertiesOfId(template, 'AWS::Lambda::Function', functionId);
    expect(fn.Timeout).toBe(60);
  });

  it('lets the indexer write only search partitions and read accounts, pointers and journals', () => {
    const statements = statementsOf(template).filter((s) =>
      ['SearchSourceRead', 'SearchIndexWrite', 'SearchIndexRemove'].includes(String(s.Sid)),
    );
    type Condition = Record<string, Record<string, unknown>>;
    const keysOf = (sid: string) => {
      const condition = (statements.find((s) => s.Sid === sid)?.Condition ?? {}) as Condition;
      return condition['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'];
    };
    expect(keysOf('SearchSourceRead')).toEqual(['ACCOUNT#*', 'ENTRY_ID#*', 'JOURNAL#*']);
    expect(keysOf('SearchIndexWrite')).toEqual(['SEARCH#*', 'SEARCH_OBJECT#*', 'SEARCH_HEAD#*']);
    expect(keysOf('SearchIndexRemove')).toEqual(['SEARCH#*']);
  });

  it('passes the projector account inserts and metadata items besides account updates', () => {
    const projector = logicalIdOf(ledger.stacks.stateless.journalProjector.function);
    const [mapping] = mappingsOf(projector);
    const criteria = (mapping?.FilterCriteria ?? { Filters: [] }) as {
      Filters: { Pattern: string }[];
    };
    const filters = criteria.Filters.map((f) => JSON.parse(f.Pattern));
    expect(filters).toHaveLength(4);
    expect(filters[1]).toEqual({
      eventName: ['INSERT'],
      dynamodb: { NewImage: { kind: { S: ['account'] } } },
    });
    expect(filters.slice(2).map((f) => Object.keys(f.dynamodb))).toEqual([
      ['NewImage'],
      ['OldImage'],
    ]);
  });

  it('alarms on the DLQ and on the indexer’s errors', () => {
    const names = Object.values(propertiesOf(template, 'AWS::CloudWatch::Alarm')).map(
      (a) => a.AlarmName,
    );
    expect(names).toEqual(
      expect.arrayContaining([
        'idempotent-ledger-dev-search-index-dlq-not-empty',
        'idempotent-ledger-dev-search-indexer-errors',
      ]),
    );
  });
});
