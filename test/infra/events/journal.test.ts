import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  expectRolePolicy,
  expectTlsOnlyTopic,
  importOf,
  logicalIdOf,
  propertiesOf,
  propertiesOfId,
  SYNTH_HOOK_TIMEOUT_MS,
  type SynthesizedLedger,
  synthLedger,
} from '../synth';

const arnOf = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });

/** The journal's infrastructure (docs/contract.md §15, docs/deployment.md "Journal events"). */
describe('the journal topic (stateful stack)', () => {
  let ledger: SynthesizedLedger;
  let topicId: string;
  let keyId: string;

  beforeAll(() => {
    ledger = synthLedger();
    topicId = logicalIdOf(ledger.stacks.stateful.journalTopic.topic);
    keyId = logicalIdOf(ledger.stacks.stateful.journalTopic.key);
  }, SYNTH_HOOK_TIMEOUT_MS);

  it('is a standard topic named <stage>-ledger-journal, encrypted with a rotated customer key', () => {
    const topic = propertiesOfId(ledger.stateful, 'AWS::SNS::Topic', topicId);
    expect(topic.TopicName).toBe('dev-ledger-journal');
    expect(topic.FifoTopic).toBeUndefined();
    expect(topic.KmsMasterKeyId).toEqual(arnOf(keyId));
    expect(propertiesOfId(ledger.stateful, 'AWS::KMS::Key', keyId).EnableKeyRotation).toBe(true);
    ledger.stateful.hasResource('AWS::KMS::Key', { DeletionPolicy: 'Retain' });
  });

  it('refuses requests without TLS', () => {
    expectTlsOnlyTopic(ledger.stateful, topicId);
  });

  it('outputs JournalTopicArn', () => {
    ledger.stateful.hasOutput('JournalTopicArn', { Value: { Ref: topicId } });
  });
});

describe('the journal projector (stateless stack)', () => {
  let ledger: SynthesizedLedger;
  let fnId: string;
  let tableId: string;

  beforeAll(() => {
    ledger = synthLedger({
      journalReaders: 'arn:aws:sts::123456789012:assumed-role/reconciler,sub-7',
    });
    fnId = logicalIdOf(ledger.stacks.stateless.journalProjector.function);
    tableId = logicalIdOf(ledger.stacks.stateful.table);
  }, SYNTH_HOOK_TIMEOUT_MS);

  const mapping = () => {
    const all = Object.values(propertiesOf(ledger.stateless, 'AWS::Lambda::EventSourceMapping'));
    return all.filter((m) => (m.FunctionName as { Ref?: string }).Ref === fnId);
  };

  it('reads the table stream from TRIM_HORIZON, in order, without giving up or splitting batches', () => {
    const [only, ...more] = mapping();
    expect(more).toEqual([]);
    expect(only).toMatchObject({
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: 100,
      ParallelizationFactor: 1,
      BisectBatchOnFunctionError: false,
      MaximumRetryAttempts: -1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      EventSourceArn: importOf(ledger, { 'Fn::GetAtt': [tableId, 'StreamArn'] }),
    });
    // No maximum record age and nowhere to give up to: a record is retried until projected.
    expect(only?.MaximumRecordAgeInSeconds).toBeUndefined();
    expect(only?.DestinationConfig).toBeUndefined();
    const criteria = only?.FilterCriteria as { Filters: { Pattern: string }[] } | undefined;
    const [filter] = criteria?.Filters ?? [];
    expect(JSON.parse(filter?.Pattern ?? '{}')).toEqual({
      eventName: ['MODIFY'],
      dynamodb: {
        NewImage: { kind: { S: ['account'] }, version: { N: [{ exists: true }] } },
      },
    });
  });

  it('makes the table stream read by exactly two consumers (the DynamoDB Streams limit)', () => {
    const all = Object.values(propertiesOf(ledger.stateless, 'AWS::Lambda::EventSourceMapping'));
    const stream = importOf(ledger, { 'Fn::GetAtt': [tableId, 'StreamArn'] });
    const readers = all.filter((m) => JSON.stringify(m.EventSourceArn) === JSON.stringify(stream));
    expect(readers).toHaveLength(2);
  });

  it('runs without a concurrency cap, with the topic, the stage, the table and search-index in its environment', () => {
    const fn = propertiesOfId(ledger.stateless, 'AWS::Lambda::Function', fnId);
    expect(fn.ReservedConcurrentExecutions).toBeUndefined();
    expect(fn.Timeout).toBe(60);
    const topicId = logicalIdOf(ledger.stacks.stateful.journalTopic.topic);
    const searchId = logicalIdOf(ledger.stacks.stateful.searchIndexQueues.queue);
    expect((fn.Environment as { Variables: unknown }).Variables).toEqual({
      TABLE_NAME: importOf(ledger, { Ref: tableId }),
      JOURNAL_TOPIC_ARN: importOf(ledger, { Ref: topicId }),
      STAGE: 'dev',
      SEARCH_INDEX_QUEUE_URL: importOf(ledger, { Ref: searchId }),
    });
  });

  it('may read and write journal partitions only (and monitors), publish to the topic and use its key', () => {
    const imported = (value: unknown) => importOf(ledger, value);
    const keyId = logicalIdOf(ledger.stacks.stateful.journalTopic.key);
    const topicId = logicalIdOf(ledger.stacks.stateful.journalTopic.topic);
    expectRolePolicy(ledger, ledger.stacks.stateless.journalProjector.function, [
      { Action: 'dynamodb:ListStreams', Resource: '*' },
      {
        Action: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'],
        Resource: imported({ 'Fn::GetAtt': [tableId, 'StreamArn'] }),
      },
      {
        Sid: 'JournalItems',
        Action: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem'],
        Resource: imported(arnOf(tableId)),
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['JOURNAL#*'] } },
      },
      {
        Sid: 'ReconcileMarks',
        Action: 'dynamodb:PutItem',
        Resource: imported(arnOf(tableId)),
        Condition: {
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RECONCILE_MARK#*'] },
        },
      },
      {
        Sid: 'MonitorItems',
        Action: ['dynamodb:Query', 'dynamodb:UpdateItem'],
        Resource: imported(arnOf(tableId)),
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['MONITOR#*'] } },
      },
      {
        Sid: 'EffectiveDayItems',
        Action: 'dynamodb:UpdateItem',
        Resource: imported(arnOf(tableId)),
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['EFFDAYS#*'] } },
      },
      { Sid: 'JournalPublish', Action: 'sns:Publish', Resource: imported({ Ref: topicId }) },
      {
        Sid: 'JournalTopicKey',
        Action: ['kms:GenerateDataKey', 'kms:Decrypt'],
        Resource: imported(arnOf(keyId)),
      },
      // The hand-off to the search indexer (docs/contract.md §34).
      {
        Sid: 'SearchIndexSend',
        Action: 'sqs:SendMessage',
        Resource: imported(arnOf(logicalIdOf(ledger.stacks.stateful.searchIndexQueues.queue))),
      },
    ]);
  });

  it('hands journalReaders to the HTTP function, which serves the journal routes', () => {
    const http = logicalIdOf(ledger.stacks.stateless.httpFunction);
    const fn = propertiesOfId(ledger.stateless, 'AWS::Lambda::Function', http);
    const vars = (fn.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(JSON.parse(String(vars.JOURNAL_READERS))).toEqual([
      'arn:aws:sts::123456789012:assumed-role/reconciler',
      'sub-7',
    ]);
    const routes = Object.values(propertiesOf(ledger.stateless, 'AWS::ApiGatewayV2::Route')).map(
      (r) => r.RouteKey,
    );
    expect(routes).toEqual(
      expect.arrayContaining([
        'GET /v1/accounts/{accountId}/journal',
        'GET /v1/accounts/{accountId}/balances',
      ]),
    );
  });

  it('outputs its log group', () => {
    ledger.stateless.hasOutput('JournalProjectorLogGroupName', Match.anyValue());
  });
});
