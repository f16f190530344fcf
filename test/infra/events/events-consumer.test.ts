import { App, Duration } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveLedgerConfig } from '../../../lib/config';
import { StatefulStack } from '../../../lib/stateful-stack';
import { StatelessStack } from '../../../lib/stateless-stack';
import {
  asList,
  expectRolePolicy,
  exportedValue,
  importOf,
  logicalIdOf,
  propertiesOf,
  propertiesOfId,
  roleIdOf,
  SYNTH_HOOK_TIMEOUT_MS,
  type SynthesizedLedger,
  statementsNotOf,
  statementsOf,
  stubHandlerCode,
  synthLedger,
} from '../synth';

/** The consumer's table access, written out independently of lib/ on purpose. */
const TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
];

/** What SqsEventSource grants on the consumed queue. */
const CONSUME_ACTIONS = [
  'sqs:ReceiveMessage',
  'sqs:ChangeMessageVisibility',
  'sqs:GetQueueUrl',
  'sqs:DeleteMessage',
  'sqs:GetQueueAttributes',
];

describe('StatelessStack: ledger-events consumer (default config)', () => {
  let ledger: SynthesizedLedger;
  let template: Template;
  let functionId: string;
  let tableId: string;
  let queueId: string;
  let dlqId: string;

  beforeAll(() => {
    ledger = synthLedger();
    template = ledger.stateless;
    functionId = logicalIdOf(ledger.stacks.stateless.eventsConsumer.function);
    tableId = logicalIdOf(ledger.stacks.stateful.table);
    queueId = logicalIdOf(ledger.stacks.stateful.eventQueues.queue);
    dlqId = logicalIdOf(ledger.stacks.stateful.eventQueues.deadLetterQueue);
  }, SYNTH_HOOK_TIMEOUT_MS);

  const consumer = () => propertiesOfId(template, 'AWS::Lambda::Function', functionId);
  const mapping = () => {
    const mappings = Object.values(
      propertiesOf(template, 'AWS::Lambda::EventSourceMapping'),
    ).filter((m) => JSON.stringify(m.FunctionName) === JSON.stringify({ Ref: functionId }));
    expect(mappings).toHaveLength(1);
    return mappings[0] ?? {};
  };
  const eventsAlarm = () => {
    const alarms = Object.values(propertiesOf(template, 'AWS::CloudWatch::Alarm')).filter((a) =>
      (a.Dimensions as { Value: unknown }[] | undefined)?.some(
        (d) =>
          JSON.stringify(exportedValue(ledger, d.Value)) ===
          JSON.stringify({ 'Fn::GetAtt': [dlqId, 'QueueName'] }),
      ),
    );
    expect(alarms).toHaveLength(1);
    return alarms[0] ?? {};
  };

  it('runs the consumer on Node.js 22, arm64, 512 MB, 30 s, ESM handler, own log group', () => {
    // HTTP, events consumer, outbox dispatcher, journal projector, export worker, sweeper,
    // reconciler, credit folder, search indexer, webhook delivery.
    template.resourceCountIs('AWS::Lambda::Function', 10);
    expect(consumer()).toMatchObject({
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      MemorySize: 512,
      Timeout: 30,
      Handler: 'index.handler',
    });
    const ref = (consumer().LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref;
    expect(propertiesOf(template, 'AWS::Logs::LogGroup')[ref]).toEqual({ RetentionInDays: 30 });
  });

  it('passes the service config and DLQ_URL (the DLQ URL) via env', () => {
    const vars = (consumer().Environment as { Variables: Record<string, unknown> }).Variables;
    expect(vars).toEqual({
      TABLE_NAME: { 'Fn::ImportValue': expect.any(String) },
      IDEMPOTENCY_RETENTION_SECONDS: '86400',
      INBOX_RETENTION_SECONDS: '2592000',
      EXPORT_FEE: '100',
      CALLBACK_APPLICATION_ID: 'export-worker',
      BACKDATE_LIMIT_DAYS: '90',
      INTAKE_SHARDS: '8',
      DLQ_URL: { 'Fn::ImportValue': expect.any(String) },
      GAP_REFETCH_AFTER_SECONDS: '300',
    });
    expect(exportedValue(ledger, vars.TABLE_NAME)).toEqual({ Ref: tableId });
    // `Ref` of an AWS::SQS::Queue is its URL.
    expect(exportedValue(ledger, vars.DLQ_URL)).toEqual({ Ref: dlqId });
  });

  it('maps the main queue to the consumer with partial batch responses, batch 10, concurrency 5', () => {
    const m = mapping();
    expect(m).toMatchObject({
      FunctionName: { Ref: functionId },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BatchSize: 10,
      MaximumBatchingWindowInSeconds: 1,
      ScalingConfig: { MaximumConcurrency: 5 },
    });
    expect(m.Enabled).not.toBe(false);
    expect(exportedValue(ledger, m.EventSourceArn)).toEqual({ 'Fn::GetAtt': [queueId, 'Arn'] });
  });

  it('gives the queue a visibility timeout of at least 6 x the consumer timeout', () => {
    const visibility = propertiesOfId(ledger.stateful, 'AWS::SQS::Queue', queueId)
      .VisibilityTimeout as number;
    expect(visibility).toBeGreaterThanOrEqual(6 * (consumer().Timeout as number));
  });

  it('grants the consumer exactly: consume on the queue, SendMessage on the DLQ, item actions on the table', () => {
    const arnOf = (id: string) => importOf(ledger, { 'Fn::GetAtt': [id, 'Arn'] });
    expectRolePolicy(ledger, ledger.stacks.stateless.eventsConsumer.function, [
      { Action: CONSUME_ACTIONS, Resource: arnOf(queueId) },
      { Sid: 'DeadLetterSend', Action: 'sqs:SendMessage', Resource: arnOf(dlqId) },
      { Sid: 'LedgerTableItemAccess', Action: TABLE_ACTIONS, Resource: arnOf(tableId) },
    ]);
  });

  it('lets the consumer send nowhere but to its DLQ, and no other role touch either queue', () => {
    const consumerRole = roleIdOf(ledger.stacks.stateless.eventsConsumer.function);
    const onEventsQueues = (statement: { Resource: unknown }) =>
      asList(statement.Resource)
        .map((r) => JSON.stringify(exportedValue(ledger, r)))
        .some((r) =>
          [dlqId, queueId].some((id) => r === JSON.stringify({ 'Fn::GetAtt': [id, 'Arn'] })),
        );
    for (const statement of statementsOf(template, consumerRole)) {
      const resources = asList(statement.Resource).map((r) => exportedValue(ledger, r));
      if (asList(statement.Action).includes('sqs:SendMessage')) {
        expect(resources).toEqual([{ 'Fn::GetAtt': [dlqId, 'Arn'] }]);
      }
      if (JSON.stringify(resources) === JSON.stringify([{ 'Fn::GetAtt': [dlqId, 'Arn'] }])) {
        expect(asList(statement.Action)).toEqual(['sqs:SendMessage']);
      }
    }
    const others = statementsNotOf(template, consumerRole);
    expect(others.length).toBeGreaterThan(0);
    for (const statement of others) expect(onEventsQueues(statement)).toBe(false);
  });

  it('has no wildcard action or resource in any of its statements', () => {
    const consumerRole = roleIdOf(ledger.stacks.stateless.eventsConsumer.function);
    for (const statement of statementsOf(template, consumerRole)) {
      for (const action of asList(statement.Action)) expect(action).not.toMatch(/\*/);
      for (const resource of asList(statement.Resource)) {
        expect(typeof resource === 'string' && resource.includes('*')).toBe(false);
        expect(JSON.stringify(exportedValue(ledger, resource))).not.toContain('*');
      }
    }
  });

  it('alarms when the DLQ holds at least one message (1 min maximum, missing data not breaching)', () => {
    const alarm = eventsAlarm();
    expect(alarm).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Statistic: 'Maximum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 1,
      DatapointsToAlarm: 1,
      TreatMissingData: 'notBreaching',
    });
    expect(alarm.Period).toBeGreaterThanOrEqual(60);
    expect(alarm.Period).toBeLessThanOrEqual(300);
    const [dimension] = alarm.Dimensions as { Name: string; Value: unknown }[];
    expect(dimension?.Name).toBe('QueueName');
    expect(exportedValue(ledger, dimension?.Value)).toEqual({
      'Fn::GetAtt': [dlqId, 'QueueName'],
    });
  });

  it('tells the operator what the alarm means and what to do, and notifies the alarm topic', () => {
    const alarm = eventsAlarm();
    const description = alarm.AlarmDescription as string;
    expect(description.length).toBeLessThanOrEqual(1024);
    for (const phrase of [
      'ledger-events-dlq',
      'error_code',
      'redrive',
      'docs/alarms.md#ledger-events-dlq-not-empty',
    ]) {
      expect(description).toContain(phrase);
    }
    expect(alarm.AlarmName).toBe('idempotent-ledger-dev-ledger-events-dlq-not-empty');
    const topic = { Ref: logicalIdOf(ledger.stacks.stateless.operations.topic) };
    expect(alarm.AlarmActions).toEqual([topic]);
    expect(alarm.OKActions).toEqual([topic]);
    const typed = ledger.stacks.stateless.alarms['ledger-events-dlq-not-empty'];
    expect(typed).toBeInstanceOf(cloudwatch.Alarm);
    expect(propertiesOfId(template, 'AWS::CloudWatch::Alarm', logicalIdOf(typed))).toEqual(alarm);
  });
});

describe('StatelessStack: ledger-events consumer (configured)', () => {
  it('takes batch size and maximum concurrency from context', () => {
    const ledger = synthLedger({ eventsBatchSize: '3', eventsMaxConcurrency: 50 });
    const functionId = logicalIdOf(ledger.stacks.stateless.eventsConsumer.function);
    const mappings = Object.values(
      propertiesOf(ledger.stateless, 'AWS::Lambda::EventSourceMapping'),
    ).filter((m) => JSON.stringify(m.FunctionName) === JSON.stringify({ Ref: functionId }));
    expect(mappings).toHaveLength(1);
    expect(mappings[0]).toMatchObject({ BatchSize: 3, ScalingConfig: { MaximumConcurrency: 50 } });
  });

  it('throws when the consumer timeout outgrows the queue visibility timeout', () => {
    const app = new App({ builtinCloudFormationValidation: false });
    const stateful = new StatefulStack(app, 'Stateful', {
      eventsConsumerTimeout: Duration.seconds(30),
    });
    expect(
      () =>
        new StatelessStack(app, 'Stateless', {
          stateful,
          config: resolveLedgerConfig({}),
          handlerCode: stubHandlerCode(),
          eventsConsumerTimeout: Duration.seconds(31),
        }),
    ).toThrow(
      /visibility timeout \(180 s\) must be at least 6 × the consumer timeout \(31 s\) = 186 s/,
    );
  });
});
